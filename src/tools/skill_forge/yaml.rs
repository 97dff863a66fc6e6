//! A walk over the front matter's YAML events (libyaml, the parser under
//! `serde_norway`), before the front matter is parsed into values: it
//! bounds the nesting depth (libyaml checks every open flow level on each
//! token, so deep `[[[[…` costs quadratic time), and it finds where the
//! top-level `name` value is, byte for byte, so `install --name` changes
//! that value and nothing else.

use std::mem::MaybeUninit;
use unsafe_libyaml_norway as unsafe_sys;

/// The deepest nesting of sequences and mappings a front matter may have:
/// the bound `front` checks before any parse, which the walk keeps too.
pub const MAX_DEPTH: usize = crate::front::MAX_DEPTH;

/// The most values (scalars, sequences, mappings) a front matter may hold
/// with every alias expanded: the specification's keys are a handful of
/// strings and a map of strings, and the bound keeps the work of building
/// the values (and of checking them) small whatever the input.
pub const MAX_NODES: u64 = 100_000;

/// What the walk found.
#[derive(Debug, Default)]
pub struct Walk {
    /// The document's root, when it is a mapping.
    pub top: Option<Top>,
}

/// The top-level mapping of the front matter.
#[derive(Debug)]
pub struct Top {
    /// A flow mapping (`{name: …}`) rather than a block one.
    pub flow: bool,
    /// Byte offset where the mapping starts (its `{`, or its first key).
    pub start: usize,
    /// Byte offset and column of the first key, when there is one.
    pub first_key: Option<(usize, usize)>,
    /// The `name` entry's value, when the mapping has one.
    pub name: Option<Value>,
}

/// A value of the top-level mapping.
#[derive(Debug)]
pub enum Value {
    /// A scalar spanning `start..end` of the input (its anchor and tag
    /// included); `block` for a literal or folded scalar (`|`, `>`).
    Scalar {
        start: usize,
        end: usize,
        block: bool,
        anchored: bool,
    },
    /// An alias, a sequence or a mapping.
    Other,
}

/// Why the walk stopped.
#[derive(Debug, PartialEq)]
pub enum Stop {
    /// Nested deeper than [`MAX_DEPTH`], at this 0-based line.
    TooDeep { line: usize },
    /// More than [`MAX_NODES`] values once aliases are expanded, found at
    /// this 0-based line.
    TooLarge { line: usize },
    /// libyaml refused the text (the YAML parser says why and where).
    Syntax,
}

/// A libyaml parser reading `input`. Boxed: libyaml keeps a pointer to
/// the parser itself as the string reader's state, so it must not move.
struct Parser<'a> {
    sys: Box<MaybeUninit<unsafe_sys::yaml_parser_t>>,
    _input: &'a [u8],
}

impl<'a> Parser<'a> {
    fn new(input: &'a [u8]) -> Parser<'a> {
        let mut sys = Box::new(MaybeUninit::<unsafe_sys::yaml_parser_t>::uninit());
        let parser = sys.as_mut_ptr();
        // SAFETY: `parser` points to boxed (stable) memory that
        // yaml_parser_initialize fully initializes; the input outlives
        // the parser (the `'a` borrow), and the parser is deleted on drop.
        unsafe {
            if unsafe_sys::yaml_parser_initialize(parser).fail {
                // only an allocation failure, which aborts elsewhere too
                std::process::abort();
            }
            unsafe_sys::yaml_parser_set_encoding(parser, unsafe_sys::YAML_UTF8_ENCODING);
            unsafe_sys::yaml_parser_set_input_string(parser, input.as_ptr(), input.len() as u64);
        }
        Parser { sys, _input: input }
    }
}

impl Drop for Parser<'_> {
    fn drop(&mut self) {
        // SAFETY: the parser was initialized in `new` and is deleted once.
        unsafe { unsafe_sys::yaml_parser_delete(self.sys.as_mut_ptr()) }
    }
}

/// One event, copied out of libyaml.
enum Event {
    DocumentEnd,
    StreamEnd,
    CollectionStart {
        mapping: bool,
        flow: bool,
        anchor: Option<Vec<u8>>,
    },
    CollectionEnd,
    Scalar {
        value: Vec<u8>,
        block: bool,
        anchor: Option<Vec<u8>>,
    },
    Alias(Vec<u8>),
    Other,
}

impl Parser<'_> {
    /// The next event and its start and end marks, or `None` on a syntax error.
    fn next(&mut self) -> Option<(Event, unsafe_sys::yaml_mark_t, unsafe_sys::yaml_mark_t)> {
        let mut event = MaybeUninit::<unsafe_sys::yaml_event_t>::uninit();
        let parser = self.sys.as_mut_ptr();
        // SAFETY: the parser is initialized; a successful yaml_parser_parse
        // initializes `event`, whose union member is read only for its
        // type, and which is deleted before it goes out of scope.
        unsafe {
            let ev = event.as_mut_ptr();
            if unsafe_sys::yaml_parser_parse(parser, ev).fail {
                return None;
            }
            let e = &*ev;
            let out = match e.type_ {
                // libyaml answers with no event once the stream has ended
                unsafe_sys::YAML_STREAM_END_EVENT | unsafe_sys::YAML_NO_EVENT => Event::StreamEnd,
                unsafe_sys::YAML_DOCUMENT_END_EVENT => Event::DocumentEnd,
                unsafe_sys::YAML_MAPPING_START_EVENT => Event::CollectionStart {
                    mapping: true,
                    flow: e.data.mapping_start.style == unsafe_sys::YAML_FLOW_MAPPING_STYLE,
                    anchor: c_string(e.data.mapping_start.anchor),
                },
                unsafe_sys::YAML_SEQUENCE_START_EVENT => Event::CollectionStart {
                    mapping: false,
                    flow: e.data.sequence_start.style == unsafe_sys::YAML_FLOW_SEQUENCE_STYLE,
                    anchor: c_string(e.data.sequence_start.anchor),
                },
                unsafe_sys::YAML_MAPPING_END_EVENT | unsafe_sys::YAML_SEQUENCE_END_EVENT => {
                    Event::CollectionEnd
                }
                unsafe_sys::YAML_SCALAR_EVENT => {
                    let s = &e.data.scalar;
                    Event::Scalar {
                        value: std::slice::from_raw_parts(s.value, s.length as usize).to_vec(),
                        block: s.style == unsafe_sys::YAML_LITERAL_SCALAR_STYLE
                            || s.style == unsafe_sys::YAML_FOLDED_SCALAR_STYLE,
                        anchor: c_string(s.anchor),
                    }
                }
                unsafe_sys::YAML_ALIAS_EVENT => {
                    Event::Alias(c_string(e.data.alias.anchor).unwrap_or_default())
                }
                _ => Event::Other,
            };
            let marks = (e.start_mark, e.end_mark);
            unsafe_sys::yaml_event_delete(ev);
            Some((out, marks.0, marks.1))
        }
    }
}

/// A NUL-terminated string of libyaml's (an anchor's name), if any.
///
/// # Safety
/// `ptr` is null or points to a NUL-terminated string.
unsafe fn c_string(ptr: *const u8) -> Option<Vec<u8>> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: not null, and libyaml terminates its strings with NUL.
    Some(
        unsafe { std::ffi::CStr::from_ptr(ptr.cast()) }
            .to_bytes()
            .to_vec(),
    )
}

/// Walks `yaml` (its first document for `name`, every document for the
/// depth: the YAML parser reads them all): `Err(TooDeep)` as soon as the
/// nesting passes [`MAX_DEPTH`] (so the work stays linear in the input),
/// `Err(TooLarge)` as soon as the values, aliases expanded, pass
/// [`MAX_NODES`], `Err(Syntax)` when libyaml refuses it.
pub fn walk(yaml: &str) -> Result<Walk, Stop> {
    let mut parser = Parser::new(yaml.as_bytes());
    let mut walk = Walk::default();
    let mut depth = 0usize;
    // direct children of the top mapping seen so far: even = key, odd = value
    let mut children = 0usize;
    let mut name_next = false;
    let mut first = true;
    let mut nodes = Nodes::default();
    loop {
        let (event, start, end) = parser.next().ok_or(Stop::Syntax)?;
        let too_large = || Stop::TooLarge {
            line: start.line as usize,
        };
        let index = |m: unsafe_sys::yaml_mark_t| m.index as usize;
        let in_top = first && depth == 1 && walk.top.is_some();
        let is_key = in_top && children.is_multiple_of(2);
        if is_key
            && !matches!(
                event,
                Event::CollectionEnd | Event::DocumentEnd | Event::StreamEnd | Event::Other
            )
            && let Some(top) = walk.top.as_mut()
            && top.first_key.is_none()
        {
            top.first_key = Some((index(start), start.column as usize));
        }
        match event {
            Event::StreamEnd => return Ok(walk),
            Event::DocumentEnd => {
                first = false;
                depth = 0;
                nodes.open.clear();
            }
            Event::Other => {}
            Event::CollectionStart {
                mapping,
                flow,
                anchor,
            } => {
                nodes.open.push((anchor, 1));
                if in_top {
                    if !is_key && name_next {
                        set_name(&mut walk, Value::Other);
                    }
                    name_next = false;
                    children += 1;
                }
                if first && depth == 0 && mapping {
                    walk.top = Some(Top {
                        flow,
                        start: index(start),
                        first_key: None,
                        name: None,
                    });
                }
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(Stop::TooDeep {
                        line: start.line as usize,
                    });
                }
            }
            Event::CollectionEnd => {
                depth = depth.saturating_sub(1);
                if let Some((anchor, size)) = nodes.open.pop() {
                    nodes.add(size, anchor).map_err(|()| too_large())?;
                }
            }
            Event::Alias(anchor) => {
                let size = nodes.anchors.get(&anchor).copied().unwrap_or(1);
                nodes.add(size, None).map_err(|()| too_large())?;
                if in_top {
                    if !is_key && name_next {
                        set_name(&mut walk, Value::Other);
                    }
                    name_next = false;
                    children += 1;
                }
            }
            Event::Scalar {
                value,
                block,
                anchor,
            } => {
                let anchored = anchor.is_some();
                nodes.add(1, anchor).map_err(|()| too_large())?;
                if in_top {
                    if is_key {
                        name_next = value == b"name";
                    } else if name_next {
                        set_name(
                            &mut walk,
                            Value::Scalar {
                                start: index(start),
                                end: index(end),
                                block,
                                anchored,
                            },
                        );
                        name_next = false;
                    }
                    children += 1;
                }
            }
        }
    }
}

/// The size of the front matter with every alias expanded, as the YAML
/// parser builds it: each alias costs the nodes of what it refers to.
#[derive(Default)]
struct Nodes {
    /// Open collections: their anchor and their size so far.
    open: Vec<(Option<Vec<u8>>, u64)>,
    /// The expanded size of each anchored node.
    anchors: std::collections::HashMap<Vec<u8>, u64>,
    /// Nodes of the documents' roots so far.
    total: u64,
}

impl Nodes {
    /// Adds a finished node of `size` to its parent; `Err` past [`MAX_NODES`].
    fn add(&mut self, size: u64, anchor: Option<Vec<u8>>) -> Result<(), ()> {
        if let Some(anchor) = anchor {
            self.anchors.insert(anchor, size);
        }
        let sum = match self.open.last_mut() {
            Some((_, parent)) => {
                *parent = parent.saturating_add(size);
                *parent
            }
            None => {
                self.total = self.total.saturating_add(size);
                self.total
            }
        };
        if sum > MAX_NODES { Err(()) } else { Ok(()) }
    }
}

/// Records the `name` value (the first one: a duplicate key is the YAML
/// parser's error to report).
fn set_name(walk: &mut Walk, value: Value) {
    if let Some(top) = walk.top.as_mut()
        && top.name.is_none()
    {
        top.name = Some(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name_span(yaml: &str) -> &str {
        match walk(yaml).unwrap().top.unwrap().name.unwrap() {
            Value::Scalar { start, end, .. } => &yaml[start..end],
            Value::Other => panic!("not a scalar"),
        }
    }

    #[test]
    fn finds_the_name_value_wherever_the_yaml_puts_it() {
        assert_eq!(name_span("name: a-b # c\ndescription: d\n"), "a-b");
        assert_eq!(name_span("name:\n  a-b\n"), "a-b");
        assert_eq!(name_span("{description: x, name: 'a-b'}\n"), "'a-b'");
        assert_eq!(name_span("\"name\" : \"a-b\"\n"), "\"a-b\"");
        assert_eq!(name_span("metadata: {name: x}\nname: a-b\n"), "a-b");
        assert_eq!(name_span("? name\n: a-b\n"), "a-b");
        let w = walk("description: x\n").unwrap().top.unwrap();
        assert!(w.name.is_none());
        assert_eq!(w.first_key, Some((0, 0)));
    }

    #[test]
    fn deep_nesting_stops_the_walk_early() {
        let deep = format!("m: {}", "[".repeat(200_000));
        let started = std::time::Instant::now();
        assert_eq!(walk(&deep).unwrap_err(), Stop::TooDeep { line: 0 });
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        let ok = format!(
            "m: {}x{}",
            "[".repeat(MAX_DEPTH - 1),
            "]".repeat(MAX_DEPTH - 1)
        );
        assert!(walk(&ok).is_ok());
        assert_eq!(walk("a: [").unwrap_err(), Stop::Syntax);
        let second = format!("name: a\n--- {}", "[".repeat(200_000));
        assert_eq!(walk(&second).unwrap_err(), Stop::TooDeep { line: 1 });
    }

    #[test]
    fn aliases_count_what_they_expand_to() {
        // each level doubles: 2^40 values from a few hundred bytes
        let mut yaml = String::from("a0: &a0 [x, x]\n");
        for i in 1..40 {
            yaml.push_str(&format!("a{i}: &a{i} [*a{}, *a{}]\n", i - 1, i - 1));
        }
        assert!(matches!(walk(&yaml), Err(Stop::TooLarge { .. })));
        let many = format!("m: [{}]", vec!["x"; MAX_NODES as usize].join(", "));
        assert!(matches!(walk(&many), Err(Stop::TooLarge { .. })));
        assert!(walk("a: &a [x, y]\nb: *a\n").is_ok());
    }
}
