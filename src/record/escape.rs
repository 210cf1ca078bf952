//! Writing a string as a JSON string literal: the one place rebuilt records
//! get their escaping.

/// Append `s` as a JSON string literal (quotes included) to `out`.
pub fn write_json_string(s: &str, out: &mut Vec<u8>) {
    // Room for the text, its quotes and a few escapes up front: content runs
    // to kilobytes, and growing by doubling cost a tenth of a redaction run.
    out.reserve(s.len() + s.len() / 32 + 2);
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut run = 0;
    // Jump from one byte that needs escaping to the next (eight bytes at a
    // time): content is long and mostly plain text.
    while let Some(at) = super::tape::find_special(&bytes[run..]) {
        let i = run + at;
        out.extend_from_slice(&bytes[run..i]);
        let b = bytes[i];
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 0xf)]);
            }
        }
        run = i + 1;
    }
    out.extend_from_slice(&bytes[run..]);
    out.push(b'"');
}
