//! The translation of a prepared module to the gimso semantics
//! (docs/translation.md; spec "Basic Operations" to "Intrinsics").
//!
//! Every original function `f` gets a new body `gimso.fn.f` with the
//! generic entry signature `{i64, i64} (ptr thread, ptr callee_lower, i64
//! arg_bytes)`, reading its arguments from the CC buffers; every global
//! `g` (variable or function) gets a capability object `gimso.obj.g`
//! (16-byte header, then the payload). Inside the bodies each `ptr` value
//! travels as the pair (intval, lower) ([`consts::Tx`]). The originals are
//! deleted at the end, so the output calls only the runtime ABI and other
//! translated code.
//!
//! - [`ll`]: the raw LLVM layer; [`layout`]: pointers in types and the CC
//!   buffer layout; [`consts`]: constants and global references;
//!   [`function`]: instruction-by-instruction translation of one body;
//!   [`globals`]: objects, module start-up and `main`.

mod buffers;
mod cfg;
mod consts;
mod direct;
mod eh;
mod function;
mod globals;
mod layout;
pub(crate) mod ll;
pub(crate) mod runtime;

use std::collections::{HashMap, HashSet};

use crate::llvm::Opcode;
use inkwell::module::Module;

use crate::location::Location;
use crate::reject::Diagnostic;
use crate::sites::SiteTable;
use consts::{GlobalTx, StaticObject, Tx};
use ll::{B, Ll, V};

/// What the translation did (for `-v` output and tests).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TranslateStats {
    /// Functions given a generic entry.
    pub functions: usize,
    /// Of those, the ones whose body has a direct (register) entry.
    pub direct_bodies: usize,
    /// Calls made through a direct entry (to a body here, or to a thunk
    /// the linker replaces with the body when the types agree).
    pub direct_calls: usize,
    /// Calls of C library wrappers through their register entries
    /// (`gimso_abi::DIRECT_WRAPPERS`).
    pub wrapper_direct_calls: usize,
    /// Global variables turned into capability objects.
    pub globals: usize,
    /// Inline access checks emitted.
    pub checks: usize,
    /// Checks proven at compile time (constant offsets into fixed globals).
    pub static_checks: usize,
    /// Checks left out: earlier checks through the same capability near
    /// the same address imply them.
    pub merged_checks: usize,
    /// Checks widened to cover later accesses through the same address.
    pub widened_checks: usize,
    /// Pointer loads whose capability no user needs (not read).
    pub capless_loads: usize,
    /// Calls through function pointers given the direct-body fast path.
    pub indirect_fast_paths: usize,
    /// Checks reduced to one end of the object (the other is implied).
    pub narrowed_checks: usize,
    /// Allocas kept as plain stack slots.
    pub stack_allocas: usize,
    /// Of those, the ones holding pointers (with a capability slot).
    pub stack_cap_allocas: usize,
    /// Heap copies of private stack slots made on never-returning paths.
    pub escaped_stack_copies: usize,
    /// `llvm.memset`s of private stack slots done in place.
    pub stack_memsets: usize,
    /// Small constant-length copies done as word loads and stores when
    /// both addresses are aligned.
    pub inline_copies: usize,
    /// Allocas turned into heap capability objects.
    pub heap_allocas: usize,
    /// Of those, the ones created where first needed rather than at entry.
    pub lazy_allocas: usize,
    /// Allocas made capability objects in the frame (their address goes
    /// only to `nocapture` arguments).
    pub frame_objects: usize,
    /// Zeroing memsets of fresh alloca objects left out (or done only
    /// when a lazily created object is reused).
    pub fresh_zeroings: usize,
    /// Pointer stores of a capability read from the same slot with nothing
    /// written in between (`L->top++`): the intval alone unless the slot
    /// was in atomic mode.
    pub in_place_stores: usize,
}

/// Choices the translation leaves to the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranslateOptions {
    /// Give bodies direct (register) entries and call them directly when
    /// the types agree ([`direct`]); `-fno-gimso-direct-calls` turns it off.
    pub direct_calls: bool,
    /// Shape null tests so that code generation can fold them into header
    /// loads (LLVM's implicit null checks). Only the in-process back end
    /// turns that folding on and moves its fault map where the runtime
    /// finds it ([`crate::backend`]); through clang the tests stay
    /// explicit, so the driver sets this for in-process objects only.
    pub implicit_null_checks: bool,
    /// `-fgimso-exposed-provenance`: `ptrtoint` exposes its object, and an
    /// `inttoptr` whose integer has no inferred capability takes that of
    /// the exposed object at its address (`gimso_shadow::exposed`).
    pub exposed_provenance: bool,
}

impl Default for TranslateOptions {
    fn default() -> Self {
        TranslateOptions {
            exposed_provenance: false,
            direct_calls: true,
            implicit_null_checks: true,
        }
    }
}

/// (priority, native stub) of a constructor or destructor list.
pub(crate) type Structors<'m> = Vec<(u64, V<'m>)>;

/// Module-wide translation state.
pub(crate) struct ModTx<'m> {
    pub ll: Ll<'m>,
    pub sites: SiteTable<'m>,
    /// Original function → (its new entry, its object's header symbol).
    pub fn_map: HashMap<V<'m>, (V<'m>, V<'m>)>,
    pub options: TranslateOptions,
    /// Original function defined here → its direct body ([`direct`]).
    pub direct: HashMap<V<'m>, direct::Direct<'m>>,
    /// Original global variable or alias → what it became.
    pub obj_map: HashMap<V<'m>, GlobalTx<'m>>,
    /// Original `landingpad` → its LSDA constant (an original global).
    pub lsda_map: HashMap<V<'m>, V<'m>>,
    /// Catch type → its selector ([`ModTx::type_id`]).
    pub type_ids: HashMap<V<'m>, i64>,
    /// Filter clauses numbered so far (their selectors are negative).
    pub filters: i64,
    /// Objects that are thread-local variables' initial images.
    pub tls_objects: HashSet<V<'m>>,
    /// Translated objects whose size and flags are known here.
    pub static_objects: HashMap<V<'m>, StaticObject>,
    /// Over-aligned globals: the object symbol (an alias of the header)
    /// → the padded storage it lies in, and the padding before the header.
    pub padded_objects: HashMap<V<'m>, (V<'m>, u64)>,
    pub const_memo: HashMap<V<'m>, Tx<'m>>,
    /// Object symbols of weak declarations (`__attribute__((weak))` never
    /// defined here): null when the link leaves them undefined.
    pub weak_objects: HashSet<V<'m>>,
    /// While global images are built: a weak symbol's address is written
    /// as if it were defined (a static image cannot test for null), and
    /// start-up stores the tested pointer over it.
    pub image_mode: bool,
    pub mentions_memo: HashMap<V<'m>, bool>,
    pub block_ids: HashMap<(V<'m>, B<'m>), u64>,
    pub errors: Vec<Diagnostic>,
    pub stats: TranslateStats,
    /// New (priority, function) constructor and destructor lists.
    pub pending_structors: Option<(Structors<'m>, Structors<'m>)>,
    /// Each function body's capability inference, made before any is
    /// translated (taken by its translation).
    pub inferences: HashMap<V<'m>, crate::inttoptr::CapInference<'m>>,
    /// Each function body → the 64-bit parameters whose capabilities it
    /// consumes ([`crate::inttoptr::param_cap_demands`]).
    pub param_caps: HashMap<V<'m>, HashSet<u32>>,
}

impl<'m> ModTx<'m> {
    /// Runs the capability inference of every function body, then the
    /// module's fixpoint of which parameters' capabilities each consumes.
    fn infer_capabilities(&mut self, functions: &[V<'m>]) {
        let mut bodies = HashMap::new();
        for &f in functions {
            let Some(func) = f.as_func() else { continue };
            if !f.is_declaration() {
                bodies.insert(func, crate::inttoptr::infer(func));
            }
        }
        let callee = |call: V<'m>| self.known_callee(call)?.as_func();
        let demands = crate::inttoptr::param_cap_demands(&bodies, &callee);
        self.param_caps = demands
            .into_iter()
            .map(|(f, u)| (f.as_value(), u))
            .collect();
        self.inferences = bodies.into_iter().map(|(f, i)| (f.as_value(), i)).collect();
    }

    /// The function call or invoke `call` surely runs with its own type:
    /// a direct call of a definition here that no other module can
    /// replace (not weak), called with the type it was defined with, and
    /// not variadic (its variadic arguments are no parameters).
    pub fn known_callee(&self, call: V<'m>) -> Option<V<'m>> {
        if !matches!(call.opcode(), Opcode::LLVMCall | Opcode::LLVMInvoke) {
            return None;
        }
        let f = call.called_value();
        if !self.direct.get(&f).is_some_and(|d| d.bind) {
            return None;
        }
        let ty = f.global_value_type();
        (call.called_fn_type() == ty && !ty.is_vararg()).then_some(f)
    }
}

impl<'m> ModTx<'m> {
    /// A stable number for a block address: the function's name hash above
    /// bit 20, the block's rank plus one below. Ranks put the destinations
    /// of the function's `indirectbr`s first, in order, so that one
    /// `indirectbr` can map its numbers to code addresses through a dense
    /// table (see `FnTx::tx_branch`).
    pub fn block_id(&mut self, f: V<'m>, b: B<'m>) -> u64 {
        if let Some(&id) = self.block_ids.get(&(f, b)) {
            return id;
        }
        let name = f.name();
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in name.bytes() {
            h = (h ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
        }
        let blocks = f.func().blocks();
        let mut order: Vec<B<'m>> = Vec::with_capacity(blocks.len());
        let mut seen = HashSet::new();
        for &blk in &blocks {
            let Some(t) = blk.terminator() else {
                continue;
            };
            if t.opcode() == Opcode::LLVMIndirectBr {
                for d in t.successors() {
                    if seen.insert(d) {
                        order.push(d);
                    }
                }
            }
        }
        order.extend(blocks.iter().copied().filter(|blk| seen.insert(*blk)));
        for (rank, &blk) in order.iter().enumerate() {
            let id = ((h & 0xffff_ffff) << 20) | (rank as u64 + 1);
            self.block_ids.insert((f, blk), id);
        }
        self.block_ids
            .get(&(f, b))
            .copied()
            .unwrap_or((h & 0xffff_ffff) << 20)
    }

    pub fn error(&mut self, location: Location, construct: &str, why: &str) {
        self.errors.push(Diagnostic {
            location,
            construct: construct.to_owned(),
            message: format!("gimso does not support {construct}: {why}"),
        });
    }
}

/// Rewrites `module` in place so every pointer operation follows the gimso
/// semantics; afterwards the module only calls the runtime ABI and other
/// translated code. On error the module is left in an unspecified state
/// and the diagnostics name each unsupported construct.
pub fn translate_module(module: &Module<'_>) -> Result<TranslateStats, Vec<Diagnostic>> {
    translate_module_with(module, &TranslateOptions::default())
}

/// [`translate_module`] with `options`.
pub fn translate_module_with(
    module: &Module<'_>,
    options: &TranslateOptions,
) -> Result<TranslateStats, Vec<Diagnostic>> {
    let ll = Ll::new(module);
    let sites = SiteTable::new(&ll);
    let mut m = ModTx {
        ll,
        sites,
        fn_map: HashMap::new(),
        options: options.clone(),
        direct: HashMap::new(),
        obj_map: HashMap::new(),
        static_objects: HashMap::new(),
        padded_objects: HashMap::new(),
        tls_objects: HashSet::new(),
        lsda_map: HashMap::new(),
        type_ids: HashMap::new(),
        filters: 0,
        const_memo: HashMap::new(),
        weak_objects: HashSet::new(),
        image_mode: false,
        mentions_memo: HashMap::new(),
        block_ids: HashMap::new(),
        errors: Vec::new(),
        stats: TranslateStats::default(),
        pending_structors: None,
        inferences: HashMap::new(),
        param_caps: HashMap::new(),
    };
    let old_functions: Vec<V<'_>> =
        m.ll.functions()
            .into_iter()
            .filter(|&f| !f.name().starts_with("llvm."))
            .map(|f| f.as_value())
            .collect();
    m.create_lsdas(&old_functions);
    let old_globals = m.ll.globals();
    let old_aliases = m.ll.aliases();
    m.declare_functions(&old_functions);
    m.declare_globals(&old_globals);
    m.declare_aliases(&old_aliases);
    m.define_globals(&old_globals);
    m.infer_capabilities(&old_functions);
    for &f in &old_functions {
        if !f.is_declaration() {
            function::translate_function(&mut m, f);
            m.stats.functions += 1;
        }
    }
    m.emit_startup(&old_functions, &old_globals);
    if !m.errors.is_empty() {
        return Err(m.errors);
    }
    m.delete_originals(&old_functions, &old_globals, &old_aliases);
    if let Some(f) = m.ll.get_function(function::unwinding::NATIVE_SETJMP) {
        f.set_name("_setjmp");
    }
    m.emit_main();
    if let Err(e) = module.verify() {
        return Err(vec![Diagnostic {
            location: Location::module(),
            construct: "translation".into(),
            message: format!(
                "gimso internal error: the translated module does not verify: {}",
                e.to_string()
                    .lines()
                    .take(12)
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        }]);
    }
    Ok(m.stats)
}
