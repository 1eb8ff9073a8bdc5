//! Compiled functions' symbols and the C names reports show for them.

use gimso_abi::compiled_function_name;

#[test]
fn generic_and_direct_symbols_name_the_c_function() {
    assert_eq!(compiled_function_name("gimso.fn.main"), Some("main"));
    // A wrapper's register entry.
    assert_eq!(compiled_function_name("gimso.fn.free.direct"), Some("free"));
    assert_eq!(
        compiled_function_name("gimso.fd.lua_type.2d594f4f151c2adc"),
        Some("lua_type")
    );
    // A static function LLVM renamed keeps its suffix; only the hash goes.
    assert_eq!(
        compiled_function_name("gimso.fd.helper.1.00000000deadbeef"),
        Some("helper.1")
    );
    // Not a hash: the whole rest is the name.
    assert_eq!(
        compiled_function_name("gimso.fd.odd.name"),
        Some("odd.name")
    );
    assert_eq!(compiled_function_name("gimso_store_ptr"), None);
    assert_eq!(compiled_function_name("main"), None);
}

#[test]
fn wrapper_register_entries_are_named_from_the_wrapper() {
    for w in gimso_abi::DIRECT_WRAPPERS {
        let want = format!(
            "{}{}{}",
            gimso_abi::SYMBOL_FN_PREFIX,
            w.name,
            gimso_abi::WRAPPER_DIRECT_SUFFIX
        );
        assert_eq!(w.symbol, want);
        assert_eq!(compiled_function_name(w.symbol), Some(w.name));
    }
}
