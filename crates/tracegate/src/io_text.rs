//! Text for humans: how I/O errors read in messages (one lowercase line,
//! without the OS's `(os error N)` suffix), how counts are worded, the
//! stable names of enums (`named_enum!`) and the fixed `Debug` forms of
//! types that must not show their fields (`debug_as!`). Shared by the
//! policy loader, the audit log and the command line. (Text that did not
//! come from tracegate is shown on a terminal through the window module's
//! `escape_display`.)

use std::io;

/// Declares a unit enum whose variants each have a stable name, written
/// once beside the variant: `as_str`, `ALL` (declaration order),
/// `from_name` and `Display` (the name) follow from that list.
#[doc(hidden)]
#[macro_export]
macro_rules! named_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $($(#[$vmeta:meta])* $variant:ident = $text:expr,)*
    }) => {
        $(#[$meta])*
        $vis enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl $name {
            /// Every variant, in declaration order.
            $vis const ALL: [$name; [$($text),*].len()] = [$($name::$variant),*];

            /// The variant's stable name.
            $vis fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            /// The variant [`Self::as_str`] names `name`.
            $vis fn from_name(name: &str) -> Option<$name> {
                Self::ALL.into_iter().find(|v| v.as_str() == name)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
// The library names it by this module's path (the layering test reads
// paths); other crates as `tracegate::named_enum!`.
pub(crate) use named_enum;

/// Implements `Debug` as one fixed form, for a type whose fields must not
/// be shown (record bytes, keys, lists) or say little: `debug_as!(Tape,
/// |t| "Tape({} tokens)", t.tokens.len())` writes what the format says of
/// `self` (named `t`); `debug_as!(Auditor, "Auditor")` writes the text;
/// `debug_as!(Ledger, |l| "Ledger" { path: l.path, .. })` writes a struct
/// of the values named (`..`: it has more).
#[doc(hidden)]
#[macro_export]
macro_rules! debug_as {
    ($ty:ty, $text:literal) => {
        impl ::std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($text)
            }
        }
    };
    ($ty:ty, |$this:ident| $name:literal { $($field:ident: $value:expr,)* .. }) => {
        impl ::std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                let $this = self;
                f.debug_struct($name)
                    $(.field(::std::stringify!($field), &$value))*
                    .finish_non_exhaustive()
            }
        }
    };
    ($ty:ty, |$this:ident| $name:literal { $($field:ident: $value:expr,)* }) => {
        impl ::std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                let $this = self;
                f.debug_struct($name)$(.field(::std::stringify!($field), &$value))*.finish()
            }
        }
    };
    ($ty:ty, |$this:ident| $($format:tt)+) => {
        impl ::std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                let $this = self;
                ::std::write!(f, $($format)+)
            }
        }
    };
}
pub(crate) use debug_as;

/// A lowercase, one-line description of an I/O error.
pub fn io_cause(e: &io::Error) -> String {
    let s = e.to_string();
    let s = match s.find(" (os error ") {
        Some(i) => &s[..i],
        None => &s,
    };
    let mut out: String = s.replace(['\n', '\r'], " ");
    if let Some(first) = out.get(..1)
        && first.chars().all(|c| c.is_ascii_uppercase())
    {
        out.replace_range(..1, &first.to_ascii_lowercase());
    }
    out
}

/// `n` and its noun, singular for exactly one: `counted(1, "record",
/// "records")` is `1 record`, `counted(0, "entry", "entries")` is
/// `0 entries`. Every count a message shows goes through this, so that no
/// message reads `1 records` (issue 35 item 8).
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod counted_tests {
    use super::counted;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1, "record", "records"), "1 record");
        assert_eq!(counted(0, "record", "records"), "0 records");
        assert_eq!(counted(2, "entry", "entries"), "2 entries");
        assert_eq!(counted(11, "error", "errors"), "11 errors");
    }
}
