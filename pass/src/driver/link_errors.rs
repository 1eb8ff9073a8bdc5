//! Linker errors about gimso's symbols rewritten into what the user
//! wrote: a missing wrapper names the C function.

/// The linker's stderr with missing-wrapper errors rewritten.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkReport {
    /// The text to print.
    pub text: String,
    /// C names (without the `gimso.fn.`/`gimso.obj.` prefix) that have no
    /// gimso definition, in first-seen order, without repeats.
    pub missing: Vec<String>,
}

/// Rewrites linker output: every undefined reference to `gimso.fn.NAME`
/// or `gimso.obj.NAME` (GNU ld, gold, lld and mold formats) becomes
/// `gimso-cc: error: no gimso wrapper for external function 'NAME'
/// (referenced from <where> in function 'F')`; other lines pass through,
/// with each `(from, to)` of `renames` applied (temporary object paths →
/// source names). A note explaining the error follows when there was one.
pub fn rewrite_link_errors(output: &str, renames: &[(String, String)]) -> LinkReport {
    let mut rw = Rewriter::default();
    for raw in output.lines() {
        let mut line = raw.to_owned();
        for (from, to) in renames {
            if !from.is_empty() && line.contains(from.as_str()) {
                line = line.replace(from.as_str(), to);
            }
        }
        rw.line(&line);
    }
    rw.finish()
}

#[derive(Default)]
struct Rewriter {
    out: Vec<String>,
    /// One entry per missing name, rendered at its first reference.
    missing: Vec<Missing>,
    /// GNU ld's `obj: in function `F':` header, held back until a line it
    /// introduces is passed through (it is dropped when every reference
    /// under it was rewritten).
    function: Option<FunctionHeader>,
    /// An lld/mold block for a gimso symbol.
    lld_block: Option<LldBlock>,
}

/// A name without a gimso definition and where it is referenced.
struct Missing {
    name: String,
    /// Referenced as `gimso.fn.NAME` (a call) at least once.
    called: bool,
    /// Index of its line in `Rewriter::out`.
    line: usize,
    /// The first reference: place and function.
    place: String,
    function: Option<String>,
    /// The other functions (or places, when the linker names none) that
    /// reference it.
    others: std::collections::BTreeSet<String>,
}

impl Missing {
    fn render(&self) -> String {
        let kind = if self.called {
            "function"
        } else {
            "function or variable"
        };
        let mut msg = format!(
            "gimso-cc: error: no gimso wrapper for external {kind} '{}'",
            self.name
        );
        let from = match (self.place.is_empty(), &self.function) {
            (true, None) => None,
            (true, Some(f)) => Some(format!("function '{f}'")),
            (false, None) => Some(self.place.clone()),
            (false, Some(f)) => Some(format!("{} in function '{f}'", self.place)),
        };
        if let Some(from) = from {
            msg.push_str(&format!(" (referenced from {from}"));
            match self.others.len() {
                0 => {}
                1 => msg.push_str(", and from 1 other place"),
                n => msg.push_str(&format!(", and from {n} other places")),
            }
            msg.push(')');
        }
        msg
    }
}

struct FunctionHeader {
    line: String,
    /// The function's C name.
    name: String,
    printed: bool,
}

struct LldBlock {
    symbol: String,
    /// `(where, function)` of each `>>> referenced by`.
    refs: Vec<(String, Option<String>)>,
}

/// `gimso.fn.NAME` → `("function", NAME)`, `gimso.obj.NAME` → `("function
/// or variable", NAME)`.
fn gimso_symbol(sym: &str) -> Option<(&'static str, &str)> {
    if let Some(name) = sym.strip_prefix(gimso_abi::SYMBOL_FN_PREFIX) {
        Some(("function", name))
    } else {
        sym.strip_prefix(gimso_abi::SYMBOL_OBJ_PREFIX)
            .map(|name| ("function or variable", name))
    }
}

/// A compiled function's C name (`gimso.fn.main` → `main`).
fn c_name(function: &str) -> &str {
    function
        .strip_prefix(gimso_abi::SYMBOL_FN_PREFIX)
        .unwrap_or(function)
}

/// gold's `obj.o:src.c:function F` (or `obj.o:function F`) → the source
/// (or object) and `F`'s C name; other places are kept whole.
fn split_gold_place(place: &str) -> (String, Option<String>) {
    let Some(at) = place.find(":function ") else {
        return (place.to_owned(), None);
    };
    let function = place[at + ":function ".len()..]
        .split(':')
        .next()
        .unwrap_or_default();
    let file = place[..at].rsplit(':').next().unwrap_or_default();
    (file.to_owned(), Some(c_name(function).to_owned()))
}

/// Drops a leading `/usr/bin/ld: ` (or `ld.gold: `, …) tool prefix.
fn strip_tool_prefix(s: &str) -> &str {
    for tool in [
        "ld: ",
        "ld.bfd: ",
        "ld.gold: ",
        "ld.lld: ",
        "ld.lld-16: ",
        "mold: ",
    ] {
        if let Some(pos) = s.find(tool) {
            let head = &s[..pos];
            // The prefix is the program, possibly with its directory.
            if (head.is_empty() || head.ends_with('/')) && !head.contains([' ', ':']) {
                return &s[pos + tool.len()..];
            }
        }
    }
    s
}

/// Splits `line` at `marker` followed by a symbol in GNU's `` `sym' `` or
/// gold's `'sym'` quoting: `(text before marker, sym)`.
fn quoted_after<'l>(line: &'l str, marker: &str) -> Option<(&'l str, &'l str)> {
    let pos = line.find(marker)?;
    let rest = line[pos + marker.len()..].strip_prefix(['`', '\''])?;
    let end = rest.find('\'')?;
    Some((&line[..pos], &rest[..end]))
}

/// `obj.o:(function)` → `("obj.o", Some(function))`.
fn split_object_function(s: &str) -> (String, Option<String>) {
    match s.rfind(":(") {
        Some(open) if s.ends_with(')') => (
            s[..open].to_owned(),
            Some(c_name(&s[open + 2..s.len() - 1]).to_owned()),
        ),
        _ => (s.to_owned(), None),
    }
}

impl Rewriter {
    fn line(&mut self, line: &str) {
        // lld / mold: `ld.lld: error: undefined symbol: SYM`, then `>>> ` lines.
        if let Some(block) = &mut self.lld_block {
            if let Some(rest) = line.strip_prefix(">>>") {
                let rest = rest.trim();
                if let Some(place) = rest.strip_prefix("referenced by ") {
                    block.refs.push(split_object_function(place.trim()));
                } else if let Some(last) = block.refs.last_mut() {
                    let (object, function) = split_object_function(rest);
                    if function.is_some() && last.1.is_none() {
                        last.1 = function;
                        if last.0.is_empty() {
                            last.0 = object;
                        }
                    }
                }
                return;
            }
            self.flush_lld();
        }
        if let Some(pos) = line.find("undefined symbol: ") {
            let sym = line[pos + "undefined symbol: ".len()..].trim();
            if gimso_symbol(sym).is_some() {
                self.lld_block = Some(LldBlock {
                    symbol: sym.to_owned(),
                    refs: Vec::new(),
                });
                return;
            }
        }

        let body = strip_tool_prefix(line);
        // GNU ld: `/usr/bin/ld: obj.o: in function `F':`.
        if body.trim_end().ends_with("':") {
            if let Some((_, function)) = quoted_after(body, "in function ") {
                self.function = Some(FunctionHeader {
                    line: line.to_owned(),
                    name: c_name(function).to_owned(),
                    printed: false,
                });
                return;
            }
        }
        // GNU ld / gold: `where: undefined reference to `SYM'`.
        if let Some((place, sym)) = quoted_after(body, "undefined reference to ") {
            if let Some((kind, name)) = gimso_symbol(sym) {
                let place = place.trim_end().trim_end_matches(':');
                let place = place.strip_suffix(": error").unwrap_or(place);
                let (place, function) = match &self.function {
                    Some(h) => (place.to_owned(), Some(h.name.clone())),
                    None => split_gold_place(place),
                };
                self.emit(kind, name, &place, function.as_deref());
                return;
            }
        }
        if let Some((_, sym)) = quoted_after(body, "more undefined references to ") {
            if gimso_symbol(sym).is_some() {
                return;
            }
        }
        // Anything else passes through, after the header it belongs to
        // (the compiler driver's own closing line belongs to none).
        let is_driver_line = line.starts_with("clang") || line.starts_with("collect2");
        match &mut self.function {
            Some(header) if !is_driver_line => {
                if !header.printed {
                    header.printed = true;
                    self.out.push(header.line.clone());
                }
            }
            _ => self.function = None,
        }
        self.out.push(line.to_owned());
    }

    fn flush_lld(&mut self) {
        if let Some(block) = self.lld_block.take() {
            let Some((kind, name)) = gimso_symbol(&block.symbol) else {
                return;
            };
            if block.refs.is_empty() {
                self.emit(kind, name, "", None);
            }
            for (place, function) in &block.refs {
                self.emit(kind, name, place, function.as_deref());
            }
        }
    }

    fn emit(&mut self, kind: &str, name: &str, place: &str, function: Option<&str>) {
        // gold names the function inside the place: show its C name.
        let place = place.replace(gimso_abi::SYMBOL_FN_PREFIX, "");
        let called = kind == "function";
        // A call site references both the entry and the function object;
        // places are counted by function when the linker names one.
        let key = function.map_or_else(|| place.clone(), str::to_owned);
        if let Some(m) = self.missing.iter_mut().find(|m| m.name == name) {
            m.called |= called;
            let first = m.function.clone().unwrap_or_else(|| m.place.clone());
            if key != first {
                m.others.insert(key);
            }
            return;
        }
        self.missing.push(Missing {
            name: name.to_owned(),
            called,
            line: self.out.len(),
            place,
            function: function.map(str::to_owned),
            others: Default::default(),
        });
        // Rendered in `finish`, once every reference is known.
        self.out.push(String::new());
    }

    fn finish(mut self) -> LinkReport {
        self.flush_lld();
        for m in &self.missing {
            self.out[m.line] = m.render();
        }
        if !self.missing.is_empty() {
            self.out.push(
                "gimso-cc: note: code compiled by gimso-cc can only call functions that are \
                 themselves compiled by gimso-cc or that the gimso runtime wraps; compile the \
                 library defining them with gimso-cc"
                    .to_owned(),
            );
        }
        let mut text = self.out.join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        LinkReport {
            text,
            missing: self.missing.into_iter().map(|m| m.name).collect(),
        }
    }
}
