//! `GET /` (and `/status`): the status page of `serve`, for the person on
//! call. One self-contained HTML document rendered on the server from the
//! same document `/v1/status` answers ([`super::status::status_json`]), so
//! that it reads with JavaScript off; a small inline script then fetches
//! `/v1/status` every few seconds, redraws the page from it with DOM calls
//! (never `innerHTML`), and ticks the windows' countdowns every second.
//!
//! No external asset: the style and the script are inline, allowed by
//! their SHA-256 in a strict Content-Security-Policy ([`headers`]), so
//! nothing else can run or load, and the script may fetch only its own
//! origin.
//!
//! SECURITY: the page shows what the status document holds and nothing
//! else: policy identifiers, a window's requester and reason as the policy
//! writes them, causes (file:line, no values) and counts; never a record
//! value, a keyword list or a key. Every dynamic string is escaped
//! ([`super::html::escape`]) on the server and set as text by the script.

use std::fmt::Write as _;

use axum::http::{HeaderMap, HeaderValue, header};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use serde_json::Value;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::html::{csp, escape};

/// How often the page refreshes from `/v1/status`, in milliseconds.
const REFRESH_MS: u32 = 3000;

/// The page's style sheet. Colours meet WCAG AA (4.5:1) on their
/// backgrounds; state is said in words too, never by colour alone.
const STYLE: &str = "\
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff}\
main{max-width:70rem;margin:0 auto;padding:1rem}\
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.4rem 0 .4rem}\
code{font:13px ui-monospace,monospace;word-break:break-all}\
table{border-collapse:collapse;width:100%}\
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #c8c8c8;vertical-align:top}\
th{background:#f0f0f0}\
.ok{color:#0b6b2b}.bad{color:#a4120b;font-weight:600}.muted{color:#555}\
.state{font-weight:600}\
meter{width:7rem}\
#conn{font-size:.85rem;color:#555}\
@media print{#conn{display:none}}";

/// The page's script: refresh from `/v1/status`, redraw, tick countdowns.
/// It mirrors [`render_main`]; the browser tests hold the two to the same
/// windows.
const SCRIPT: &str = r#"(function(){"use strict";
var base=performance.now();
function fmt(s){s=Math.max(0,Math.floor(s));var h=Math.floor(s/3600),m=Math.floor(s%3600/60),x=s%60;
return (h?h+"h ":"")+(h||m?(m<10&&h?"0":"")+m+"m ":"")+(x<10&&(h||m)?"0":"")+x+"s";}
function tick(){var gone=(performance.now()-base)/1000;
document.querySelectorAll("[data-left]").forEach(function(e){e.textContent=fmt(+e.getAttribute("data-left")-gone);});}
function el(tag,attrs,kids){var e=document.createElement(tag);
for(var k in attrs){if(attrs[k]!==null&&attrs[k]!==undefined)e.setAttribute(k,String(attrs[k]));}
(kids||[]).forEach(function(c){e.appendChild(typeof c==="object"?c:document.createTextNode(String(c)));});return e;}
function n(v){return v===null||v===undefined?0:v;}
function stateWord(w){switch(w.state){case "pending":return "upcoming";case "active":case "enabled":return "open";
case "closed":return "ended ("+(w.closed_cause||"closed")+")";default:return "ended ("+w.state+")";}}
function budget(w){var kids=[];[["records","max_records"],["bytes","max_bytes"]].forEach(function(p){
if(w[p[1]]===null||w[p[1]]===undefined)return;var used=w.spent?n(w.spent[p[0]]):0;
kids.push(el("meter",{min:0,max:w[p[1]],value:Math.min(used,w[p[1]]),"data-budget":p[0]},[]));
kids.push(" "+used+" / "+w[p[1]]+" "+p[0]+" ");});if(!kids.length)kids.push("no budget");return el("td",{},kids);}
function windows(s){var rows=(s.windows||[]).map(function(w){var live=w.state==="active"||w.state==="enabled";
return el("tr",{"data-window":w.id,"data-state":w.state,"data-sink":w.sink},[el("td",{},[el("code",{},[w.id])]),
el("td",{},[w.sink]),el("td",{"class":"state"},[stateWord(w)]),
el("td",{},live?[el("span",{"data-left":w.seconds_left},[fmt(w.seconds_left)])," left (until "+w.end+")"]:[w.start+" to "+w.end]),
budget(w),el("td",{},[w.requested_by]),el("td",{},[w.reason])]);});
if(!rows.length)rows=[el("tr",{},[el("td",{colspan:7,"class":"muted"},["no capture window in the policy"])])];
return rows;}
function sinks(s){return (s.sinks||[]).map(function(k){var t=k.totals||{},m=k.last_minute||{};
return el("tr",{"data-sink":k.name},[el("td",{},[k.name]),el("td",{},[k.full_allowed?(k.sealed?"full allowed, sealed":"full allowed"):"standard"]),
el("td",{"class":k.healthy?"ok":"bad"},[k.healthy?"writing":"cannot write: "+(k.error||"error")]),
el("td",{},[n(k.queued)+(n(k.queued)===1?" record":" records")]),
el("td",{},[n(m.passed)+" / "+n(m.stripped)+" / "+n(m.dropped)+" (last "+n(m.seconds)+" s)"]),
el("td",{},[n(t.passed)+" / "+n(t.stripped)+" / "+n(t.dropped)])]);});}
function render(s){var set=function(id,kids){var e=document.getElementById(id);if(!e)return;
while(e.firstChild)e.removeChild(e.firstChild);kids.forEach(function(c){e.appendChild(typeof c==="object"?c:document.createTextNode(String(c)));});};
set("rev",[s.policy.revision]);set("sha",[s.policy.sha256]);set("loaded",[s.policy.loaded_at]);set("now",[s.now]);
var a=s.audit||{};set("audit",[el("span",{"class":a.ready?"ok":"bad","data-audit":a.ready?"ready":"down"},
[a.ready?"ready":"NOT ready: see /healthz"])," ("+n(a.failures)+" failed appends)"]);
set("windows-body",windows(s));set("sinks-body",sinks(s));
var r=s.reloads||{};set("reloads",[n(r.ok)+" reloads applied, "+n(r.refused)+" refused"]);
var e=s.last_reload_error;set("refused",e?[el("li",{"data-refused":""},[el("span",{"class":"bad"},["refused"])," at "+e.at+": ",el("code",{},[e.cause])])]
:[el("li",{"class":"muted"},["none since the last good reload"])]);
base=performance.now();tick();}
function refresh(){fetch("/v1/status",{credentials:"same-origin",cache:"no-store"}).then(function(r){
if(!r.ok)throw new Error("status "+r.status);return r.json();}).then(function(s){render(s);
document.getElementById("conn").textContent="live: refreshed every 3 s";}).catch(function(){
document.getElementById("conn").textContent="refresh failed; showing the last status received";});}
setInterval(tick,1000);setInterval(refresh,REFRESH);tick();refresh();
})();"#;

/// The script as served (its refresh period filled in).
fn script() -> String {
    SCRIPT.replace("REFRESH", &REFRESH_MS.to_string())
}

/// The response headers of the page: its Content-Security-Policy (the
/// hashes of the inline blocks, computed from them), no sniffing, no
/// referrer, no caching, no framing.
pub fn headers() -> HeaderMap {
    let mut h = HeaderMap::new();
    let pairs = [
        (header::CONTENT_TYPE, "text/html; charset=utf-8".to_owned()),
        (header::CONTENT_SECURITY_POLICY, csp(STYLE, &script(), true)),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_owned()),
        (header::REFERRER_POLICY, "no-referrer".to_owned()),
        (header::CACHE_CONTROL, "no-store".to_owned()),
        (header::X_FRAME_OPTIONS, "DENY".to_owned()),
    ];
    for (k, v) in pairs {
        if let Ok(v) = HeaderValue::from_str(&v) {
            h.insert(k, v);
        }
    }
    h
}

/// Whether a request may see the status page and `/v1/status`: always
/// without a `[server] bearer_token_file`; with one, when it carries the
/// token as `Authorization: Bearer TOKEN` (scripts, `curl`) or as the
/// password of `Authorization: Basic` (a browser: it asks for it on the
/// 401's `Basic` challenge, then sends it again with the page's own
/// `fetch` of `/v1/status`, same origin). The user name is ignored.
///
/// SECURITY: compared in constant time, as digests (no length leak), as
/// ingest compares its bearer token.
pub fn authorized(token: Option<&[u8]>, authorization: Option<&[u8]>) -> bool {
    let Some(token) = token else {
        return true;
    };
    if super::ingest::bearer_matches(token, authorization) {
        return true;
    }
    let Some(v) = authorization else {
        return false;
    };
    let v = v.trim_ascii();
    let creds = match v.split_at_checked(6) {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case(b"basic ") => rest.trim_ascii(),
        _ => return false,
    };
    let Ok(decoded) = B64.decode(creds) else {
        return false;
    };
    let Some(colon) = decoded.iter().position(|b| *b == b':') else {
        return false;
    };
    let password = &decoded[colon + 1..];
    let a = Sha256::digest(password);
    let b = Sha256::digest(token);
    bool::from(a.as_slice().ct_eq(b.as_slice()))
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

fn u(v: &Value, k: &str) -> u64 {
    v.get(k).and_then(Value::as_u64).unwrap_or(0)
}

/// `1h 02m 03s`, as the script writes it.
pub fn duration_text(secs: u64) -> String {
    let (h, m, x) = (secs / 3600, secs % 3600 / 60, secs % 60);
    match (h, m) {
        (0, 0) => format!("{x}s"),
        (0, m) => format!("{m}m {x:02}s"),
        (h, m) => format!("{h}h {m:02}m {x:02}s"),
    }
}

fn state_word(w: &Value) -> String {
    match s(w, "state") {
        "pending" => "upcoming".into(),
        "active" | "enabled" => "open".into(),
        "closed" => format!(
            "ended ({})",
            w.get("closed_cause")
                .and_then(Value::as_str)
                .unwrap_or("closed")
        ),
        other => format!("ended ({other})"),
    }
}

fn budget_cell(out: &mut String, w: &Value) {
    out.push_str("<td>");
    let mut any = false;
    for (unit, key) in [("records", "max_records"), ("bytes", "max_bytes")] {
        let Some(max) = w.get(key).and_then(Value::as_u64) else {
            continue;
        };
        any = true;
        let used = w.get("spent").map(|sp| u(sp, unit)).unwrap_or(0);
        let _ = write!(
            out,
            "<meter min=\"0\" max=\"{max}\" value=\"{}\" data-budget=\"{unit}\"></meter> {used} / {max} {unit} ",
            used.min(max)
        );
    }
    if !any {
        out.push_str("no budget");
    }
    out.push_str("</td>");
}

/// The page's `<main>` content for a status document.
fn render_main(st: &Value, out: &mut String) {
    let null = Value::Null;
    let policy = st.get("policy").unwrap_or(&null);
    let _ = write!(
        out,
        "<header><h1>tracegate status</h1><p>Policy revision <span id=\"rev\">{}</span>, \
         sha256 <code id=\"sha\">{}</code>, loaded <span id=\"loaded\">{}</span>. \
         Server time <span id=\"now\">{}</span>. <span id=\"conn\">static page: \
         reload to refresh</span></p></header>",
        u(policy, "revision"),
        escape(s(policy, "sha256")),
        escape(s(policy, "loaded_at")),
        escape(s(st, "now")),
    );
    let audit = st.get("audit").unwrap_or(&null);
    let ready = audit.get("ready").and_then(Value::as_bool).unwrap_or(false);
    let _ = write!(
        out,
        "<section><h2>Audit log</h2><p id=\"audit\"><span class=\"{}\" data-audit=\"{}\">{}</span> \
         ({} failed appends)</p></section>",
        if ready { "ok" } else { "bad" },
        if ready { "ready" } else { "down" },
        // The daemon's readiness as `/healthz` tells it: the log writable
        // and no refused reload while a window is open.
        if ready {
            "ready"
        } else {
            "NOT ready: see /healthz"
        },
        u(audit, "failures"),
    );
    out.push_str(
        "<section><h2>Capture windows</h2><table><thead><tr><th>Window</th><th>Sink</th>\
         <th>State</th><th>Time</th><th>Budget used</th><th>Requested by</th><th>Reason</th>\
         </tr></thead><tbody id=\"windows-body\">",
    );
    let empty = Vec::new();
    let windows = st
        .get("windows")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    for w in windows {
        let state = s(w, "state");
        let live = matches!(state, "active" | "enabled");
        let _ = write!(
            out,
            "<tr data-window=\"{}\" data-state=\"{}\" data-sink=\"{}\"><td><code>{}</code></td>\
             <td>{}</td><td class=\"state\">{}</td>",
            escape(s(w, "id")),
            escape(state),
            escape(s(w, "sink")),
            escape(s(w, "id")),
            escape(s(w, "sink")),
            escape(&state_word(w)),
        );
        if live {
            let left = u(w, "seconds_left");
            let _ = write!(
                out,
                "<td><span data-left=\"{left}\">{}</span> left (until {})</td>",
                duration_text(left),
                escape(s(w, "end"))
            );
        } else {
            let _ = write!(
                out,
                "<td>{} to {}</td>",
                escape(s(w, "start")),
                escape(s(w, "end"))
            );
        }
        budget_cell(out, w);
        let _ = write!(
            out,
            "<td>{}</td><td>{}</td></tr>",
            escape(s(w, "requested_by")),
            escape(s(w, "reason"))
        );
    }
    if windows.is_empty() {
        out.push_str(
            "<tr><td colspan=\"7\" class=\"muted\">no capture window in the policy</td></tr>",
        );
    }
    out.push_str(
        "</tbody></table></section><section><h2>Sinks</h2><table><thead><tr><th>Sink</th>\
         <th>Kind</th><th>Output</th><th>Queue</th><th>Last minute: passed / fields stripped / \
         dropped</th><th>Since start</th></tr></thead><tbody id=\"sinks-body\">",
    );
    let sinks = st.get("sinks").and_then(Value::as_array).unwrap_or(&empty);
    for k in sinks {
        let healthy = k.get("healthy").and_then(Value::as_bool).unwrap_or(false);
        let t = k.get("totals").unwrap_or(&null);
        let m = k.get("last_minute").unwrap_or(&null);
        let _ = write!(
            out,
            "<tr data-sink=\"{}\"><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td>{}</td>\
             <td>{} / {} / {} (last {} s)</td><td>{} / {} / {}</td></tr>",
            escape(s(k, "name")),
            escape(s(k, "name")),
            match (
                k.get("full_allowed").and_then(Value::as_bool),
                k.get("sealed").and_then(Value::as_bool),
            ) {
                (Some(true), Some(true)) => "full allowed, sealed",
                (Some(true), _) => "full allowed",
                _ => "standard",
            },
            if healthy { "ok" } else { "bad" },
            if healthy {
                "writing".to_owned()
            } else {
                escape(&format!(
                    "cannot write: {}",
                    k.get("error").and_then(Value::as_str).unwrap_or("error")
                ))
            },
            crate::io_text::counted(u(k, "queued"), "record", "records"),
            u(m, "passed"),
            u(m, "stripped"),
            u(m, "dropped"),
            u(m, "seconds"),
            u(t, "passed"),
            u(t, "stripped"),
            u(t, "dropped"),
        );
    }
    let reloads = st.get("reloads").unwrap_or(&null);
    let _ = write!(
        out,
        "</tbody></table></section><section><h2>Policy reloads</h2><p id=\"reloads\">{} reloads \
         applied, {} refused</p><ul id=\"refused\">",
        u(reloads, "ok"),
        u(reloads, "refused"),
    );
    match st.get("last_reload_error").filter(|e| !e.is_null()) {
        Some(e) => {
            let _ = write!(
                out,
                "<li data-refused=\"\"><span class=\"bad\">refused</span> at {}: <code>{}</code></li>",
                escape(s(e, "at")),
                escape(s(e, "cause"))
            );
        }
        None => out.push_str("<li class=\"muted\">none since the last good reload</li>"),
    }
    out.push_str("</ul></section>");
}

/// The whole page for a status document.
pub fn render(st: &Value) -> String {
    let mut out = String::with_capacity(16 * 1024);
    let _ = write!(
        out,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>tracegate status</title><style>{STYLE}</style></head><body><main>"
    );
    render_main(st, &mut out);
    let _ = write!(out, "</main><script>{}</script></body></html>", script());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc() -> Value {
        json!({
            "now": "2026-12-02T10:00:00Z",
            "policy": {"revision": 3, "sha256": "ab", "loaded_at": "2026-12-02T09:00:00Z"},
            "audit": {"ready": true, "failures": 0},
            "reloads": {"ok": 2, "refused": 1},
            "last_reload_error": {"at": "2026-12-02T09:59:00Z", "cause": "windows.d/w.toml:3: <b>bad</b>"},
            "windows": [{"id": "w<1>", "sink": "full", "state": "enabled", "seconds_left": 3723,
                "start": "a", "end": "b", "requested_by": "\"x\" onload=alert(1)", "reason": "<script>",
                "max_records": 10, "max_bytes": null, "spent": {"records": 4, "bytes": 9}}],
            "sinks": [{"name": "full", "full_allowed": true, "healthy": true, "queued": 0,
                "totals": {"passed": 5, "stripped": 1, "dropped": 2},
                "last_minute": {"seconds": 30, "passed": 1, "stripped": 0, "dropped": 0}}],
        })
    }

    #[test]
    fn a_sink_says_whether_its_full_content_is_sealed() {
        let mut d = doc();
        assert!(render(&d).contains("<td>full allowed</td>"));
        d["sinks"][0]["sealed"] = json!(true);
        assert!(render(&d).contains("<td>full allowed, sealed</td>"));
    }

    #[test]
    fn dynamic_strings_are_escaped_and_windows_carry_their_data_attributes() {
        let page = render(&doc());
        assert!(page.contains("data-window=\"w&lt;1&gt;\" data-state=\"enabled\""));
        assert!(page.contains("<span data-left=\"3723\">1h 02m 03s</span>"));
        assert!(page.contains("&lt;script&gt;"));
        assert!(page.contains("&quot;x&quot; onload=alert(1)"));
        assert!(page.contains("<meter min=\"0\" max=\"10\" value=\"4\" data-budget=\"records\">"));
        assert!(page.contains("<code>windows.d/w.toml:3: &lt;b&gt;bad&lt;/b&gt;</code>"));
        // The only script and style are the two inline blocks the CSP hashes.
        assert_eq!(page.matches("<script").count(), 1);
        assert_eq!(page.matches("<style").count(), 1);
    }

    #[test]
    fn the_csp_allows_exactly_the_inline_blocks_served() {
        let page = render(&doc());
        let h = headers();
        let policy = h[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        let between = |a: &str, b: &str| {
            let i = page.find(a).unwrap() + a.len();
            page[i..i + page[i..].find(b).unwrap()].to_owned()
        };
        let style = between("<style>", "</style>");
        let script = between("<script>", "</script>");
        assert!(policy.contains(&format!(
            "style-src {};",
            super::super::html::csp_hash(&style)
        )));
        assert!(policy.contains(&format!(
            "script-src {};",
            super::super::html::csp_hash(&script)
        )));
        assert!(!policy.contains("unsafe"));
        assert!(policy.starts_with("default-src 'none';"));
        assert!(policy.contains("connect-src 'self'"));
        assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        assert_eq!(h[header::REFERRER_POLICY], "no-referrer");
        assert_eq!(h[header::CACHE_CONTROL], "no-store");
    }

    #[test]
    fn the_page_takes_the_token_as_bearer_or_as_a_basic_password_and_nothing_else() {
        let token = b"status-token-0123456789";
        let basic = |creds: &str| format!("Basic {}", B64.encode(creds));
        assert!(authorized(None, None));
        assert!(!authorized(Some(token), None));
        assert!(authorized(
            Some(token),
            Some(b"Bearer status-token-0123456789")
        ));
        assert!(authorized(
            Some(token),
            Some(basic("anyone:status-token-0123456789").as_bytes())
        ));
        assert!(authorized(
            Some(token),
            Some(basic(":status-token-0123456789").as_bytes())
        ));
        for wrong in [
            basic("status-token-0123456789:"),
            basic("status-token-0123456789"),
            basic("a:status-token-012345678"),
            basic("a:status-token-0123456789x"),
            "Basic !!!".to_owned(),
            "Bearer ".to_owned(),
            "status-token-0123456789".to_owned(),
            "Digest status-token-0123456789".to_owned(),
        ] {
            assert!(!authorized(Some(token), Some(wrong.as_bytes())), "{wrong}");
        }
    }

    #[test]
    fn durations_read_as_the_script_writes_them() {
        assert_eq!(duration_text(0), "0s");
        assert_eq!(duration_text(59), "59s");
        assert_eq!(duration_text(61), "1m 01s");
        assert_eq!(duration_text(3600), "1h 00m 00s");
    }
}
