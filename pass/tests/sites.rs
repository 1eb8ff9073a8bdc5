//! Source-location records: one per distinct location, carrying the C file,
//! function, line and column, in `gimso_source_location`'s layout.

mod common;

use common::compile;
use gimso_pass::llvm::{Ll, Opcode, Value};
use gimso_pass::load_module;
use gimso_pass::sites::SiteTable;
use inkwell::context::Context;

/// The `load` instructions of function `name`.
fn loads_of<'m>(ll: &Ll<'m>, name: &str) -> Vec<Value<'m>> {
    ll.get_function(name)
        .unwrap()
        .instructions()
        .into_iter()
        .filter(|i| i.opcode() == Opcode::LLVMLoad)
        .collect()
}

#[test]
fn one_record_per_location_with_file_function_line() {
    let ctx = Context::create();
    let module = load_module(&ctx, &compile("sites.c", "-O0", "ll")).expect("loads");
    let ll = Ll::new(&module);
    let loads = loads_of(&ll, "sum_two");
    assert!(loads.len() >= 3, "expected the array loads");

    let mut table = SiteTable::new(&ll);
    assert_eq!(table.record_type().struct_fields().len(), 4);
    let records: Vec<_> = loads.iter().map(|&i| table.record_for(&ll, i)).collect();
    // Asking again gives the same record.
    assert_eq!(table.record_for(&ll, loads[0]), records[0]);

    let texts: Vec<String> = records
        .iter()
        .map(|g| g.initializer().unwrap().print())
        .collect();
    // Lines 2 and 3 of sites.c appear, and 3 twice with different columns.
    assert!(texts.iter().any(|t| t.contains("i32 2,")), "{texts:#?}");
    let line3: Vec<&String> = texts.iter().filter(|t| t.contains("i32 3,")).collect();
    assert!(line3.len() >= 2, "{texts:#?}");
    let mut distinct = records.clone();
    distinct.sort_by_key(|g| g.print());
    distinct.dedup();
    assert!(
        distinct.len() >= 3,
        "distinct locations get distinct records"
    );

    module.verify().unwrap_or_else(|e| panic!("{e}"));
    let text = module.print_to_string().to_string();
    assert!(text.contains("sites.c\\00"), "file name string");
    assert!(text.contains("c\"sum_two\\00\""), "function name string");
    // Strings are shared: one copy of the file name however many records.
    assert_eq!(text.matches("sites.c\\00").count(), 1, "{text}");
}

#[test]
fn records_hold_offsets_not_addresses() {
    let ctx = Context::create();
    let module = load_module(&ctx, &compile("sites.c", "-O0", "ll")).expect("loads");
    let ll = Ll::new(&module);
    let load = *loads_of(&ll, "sum_two").first().expect("a load");
    let mut table = SiteTable::new(&ll);
    let record = table.record_for(&ll, load);
    let text = record.initializer().unwrap().print();
    // Both names are `string - record`: no address, so no dynamic
    // relocation in a position-independent executable.
    assert_eq!(text.matches("sub (i64 ptrtoint").count(), 2, "{text}");
    assert!(text.starts_with("{ i64, i64, i32, i32 }"), "{text}");
    // The column carries the encoding bit (printed as a signed i32).
    let column: i32 = text
        .rsplit("i32 ")
        .next()
        .and_then(|c| c.trim_end_matches(" }").parse().ok())
        .unwrap_or_else(|| panic!("no column in {text}"));
    assert_ne!(column as u32 & gimso_abi::SITE_RELATIVE, 0, "{text}");
    assert_ne!(column as u32 & !gimso_abi::SITE_RELATIVE, 0, "{text}");
    module.verify().unwrap_or_else(|e| panic!("{e}"));
}
