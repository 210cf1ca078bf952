//! TLS on both receivers and both exporters, with a test CA made at test
//! time (rcgen): mTLS, rotation by reload, a token over TLS, and the policy
//! mistakes `policy check` refuses or warns about.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use crate::grpc::{Call, call, start};
use crate::serve::{content_attrs, poll, replace_policy, span_request};
use tracegate::internals::record::otlp_proto::encode_traces_protobuf;
use tracegate_daemon::otlp_grpc::TRACES_PATH;

/// A CA and the certificates it signed, as PEM files in a folder.
pub(crate) struct Pki {
    pub(crate) dir: PathBuf,
    ca: CertifiedIssuer<'static, KeyPair>,
}

impl Pki {
    /// A new CA named `name`, its certificate in `dir/{name}-ca.pem`.
    pub(crate) fn new(dir: &Path, name: &str) -> Pki {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, format!("{name} test CA"));
        let ca = CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap();
        std::fs::write(dir.join(format!("{name}-ca.pem")), ca.pem()).unwrap();
        Pki {
            dir: dir.to_path_buf(),
            ca,
        }
    }

    /// A leaf for `names`, written to `dir/{file}.pem` and `dir/{file}.key`.
    pub(crate) fn leaf(&self, file: &str, names: &[&str]) {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let key = KeyPair::generate().unwrap();
        let cert = CertificateParams::new(names)
            .unwrap()
            .signed_by(&key, &self.ca)
            .unwrap();
        // Written beside, then renamed: a reload never sees half a file.
        let tmp = self.dir.join(format!(".{file}.tmp"));
        std::fs::write(&tmp, key.serialize_pem()).unwrap();
        std::fs::rename(&tmp, self.dir.join(format!("{file}.key"))).unwrap();
        std::fs::write(&tmp, cert.pem()).unwrap();
        std::fs::rename(&tmp, self.dir.join(format!("{file}.pem"))).unwrap();
    }
}

/// A client configuration trusting `ca`, with the identity `file` if any.
pub(crate) fn client(dir: &Path, ca: &str, identity: Option<&str>) -> rustls::ClientConfig {
    let mut roots = rustls::RootCertStore::empty();
    for c in CertificateDer::pem_file_iter(dir.join(ca)).unwrap() {
        roots.add(c.unwrap()).unwrap();
    }
    let b = rustls::ClientConfig::builder_with_provider(tracegate_daemon::tls::provider())
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots);
    match identity {
        Some(f) => {
            let certs = CertificateDer::pem_file_iter(dir.join(format!("{f}.pem")))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            let key = PrivateKeyDer::from_pem_file(dir.join(format!("{f}.key"))).unwrap();
            b.with_client_auth_cert(certs, key).unwrap()
        }
        None => b.with_no_client_auth(),
    }
}

fn tls_call(cfg: rustls::ClientConfig) -> Call {
    Call {
        tls: Some(cfg),
        ..Call::default()
    }
}

fn body(n: u32) -> Vec<u8> {
    encode_traces_protobuf(&span_request(content_attrs(n)).to_string()).unwrap()
}

/// POST `body` to `https://addr/v1/traces` with `cfg`: the status, or the
/// error's text when no HTTP answer came.
fn https_post(addr: &str, cfg: rustls::ClientConfig, body: Vec<u8>) -> Result<u16, String> {
    https(addr, cfg, "POST", "/v1/traces", body).map(|(s, _)| s)
}

/// One HTTPS request: the status and body, or the error's text.
fn https(
    addr: &str,
    cfg: rustls::ClientConfig,
    method: &str,
    path: &str,
    body: Vec<u8>,
) -> Result<(u16, Vec<u8>), String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(cfg)
            .https_only()
            .enable_http1()
            .build();
        let client =
            hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
                .build::<_, http_body_util::Full<bytes::Bytes>>(connector);
        let req = axum::http::Request::builder()
            .method(method)
            .uri(format!("https://{addr}{path}"))
            .header("content-type", "application/x-protobuf")
            .body(http_body_util::Full::new(bytes::Bytes::from(body)))
            .unwrap();
        let resp = client.request(req).await.map_err(|e| format!("{e:?}"))?;
        let status = resp.status().as_u16();
        let body = http_body_util::BodyExt::collect(resp.into_body())
            .await
            .map_err(|e| format!("{e:?}"))?
            .to_bytes();
        Ok((status, body.to_vec()))
    })
}

fn tls_policy(extra: &str) -> String {
    format!(
        "[server]\nflush_interval = \"50ms\"\ntls_cert_file = \"server.pem\"\ntls_key_file = \"server.key\"\n{extra}\n\
         [[sink]]\nname = \"std\"\noutput = \"file:std.jsonl\"\n"
    )
}

#[test]
fn tls_receivers_take_only_tls_and_mtls_only_trusted_client_certificates() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pki = Pki::new(d, "main");
    pki.leaf("server", &["127.0.0.1", "localhost"]);
    pki.leaf("client", &["engine"]);
    let rogue = Pki::new(d, "rogue");
    rogue.leaf("rogue-client", &["engine"]);
    std::fs::write(
        d.join("policy.toml"),
        tls_policy("tls_client_ca_file = \"main-ca.pem\""),
    )
    .unwrap();
    let (mut daemon, grpc) = start(d);
    let trusted = || client(d, "main-ca.pem", Some("client"));
    // gRPC and HTTPS with a trusted client certificate: taken.
    call(&grpc, TRACES_PATH, body(1), &tls_call(trusted())).unwrap();
    assert_eq!(https_post(&daemon.addr, trusted(), body(2)), Ok(200));
    // No client certificate, or one from another CA: no request is served.
    for cfg in [
        client(d, "main-ca.pem", None),
        client(d, "main-ca.pem", Some("rogue-client")),
    ] {
        assert!(call(&grpc, TRACES_PATH, body(3), &tls_call(cfg.clone())).is_err());
        assert!(https_post(&daemon.addr, cfg, body(3)).is_err());
    }
    // A client that does not trust the server's CA refuses it.
    assert!(
        call(
            &grpc,
            TRACES_PATH,
            body(4),
            &tls_call(client(d, "rogue-ca.pem", Some("client")))
        )
        .is_err()
    );
    // Cleartext to a TLS receiver: nothing is served.
    assert!(call(&grpc, TRACES_PATH, body(5), &Call::default()).is_err());
    let mut s = std::net::TcpStream::connect(&daemon.addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    let _ = s.write_all(b"POST /v1/traces HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\n{}");
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    assert!(
        !answer.starts_with(b"HTTP/1.1 2"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    daemon.terminate();
    let std_out = std::fs::read_to_string(d.join("std.jsonl")).unwrap();
    assert_eq!(std_out.lines().count(), 2, "{std_out}");
    assert!(std_out.contains("chatcmpl-1") && std_out.contains("chatcmpl-2"));
}

#[test]
fn a_rotated_certificate_is_served_after_the_policy_reloads() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let old = Pki::new(d, "old");
    old.leaf("server", &["127.0.0.1"]);
    std::fs::write(d.join("policy.toml"), tls_policy("")).unwrap();
    let (mut daemon, grpc) = start(d);
    call(
        &grpc,
        TRACES_PATH,
        body(1),
        &tls_call(client(d, "old-ca.pem", None)),
    )
    .unwrap();
    // The certificate files change; the policy text does not.
    let new = Pki::new(d, "new");
    new.leaf("server", &["127.0.0.1"]);
    poll("the new certificate served", || {
        call(
            &grpc,
            TRACES_PATH,
            body(2),
            &tls_call(client(d, "new-ca.pem", None)),
        )
        .ok()
        .map(|_| ())
    });
    assert!(https_post(&daemon.addr, client(d, "new-ca.pem", None), body(3)) == Ok(200));
    assert!(
        call(
            &grpc,
            TRACES_PATH,
            body(4),
            &tls_call(client(d, "old-ca.pem", None))
        )
        .is_err()
    );
    // A broken key is refused at reload; the last good files stay served.
    std::fs::write(
        d.join("server.key"),
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    )
    .unwrap();
    poll("the broken key refused", || {
        let (_, st) = https(
            &daemon.addr,
            client(d, "new-ca.pem", None),
            "GET",
            "/v1/status",
            vec![],
        )
        .ok()?;
        let st: serde_json::Value = serde_json::from_slice(&st).ok()?;
        st["last_reload_error"].is_object().then_some(())
    });
    call(
        &grpc,
        TRACES_PATH,
        body(5),
        &tls_call(client(d, "new-ca.pem", None)),
    )
    .unwrap();
    daemon.terminate();
    let log = std::fs::read_to_string(d.join("serve.log")).unwrap();
    assert!(!log.contains("AAAA"), "{log}");
}

#[test]
fn serve_exports_over_grpcs_and_https_with_mtls_and_a_token() {
    let pki_dir = tempfile::tempdir().unwrap();
    let p = pki_dir.path();
    let pki = Pki::new(p, "main");
    pki.leaf("server", &["127.0.0.1"]);
    pki.leaf("client", &["upstream"]);
    let token = "upstream-token-0123456789abcdef";
    let down = tempfile::tempdir().unwrap();
    std::fs::write(down.path().join("token"), token).unwrap();
    let pem = |f: &str| p.join(f).display().to_string();
    std::fs::write(
        down.path().join("policy.toml"),
        format!(
            "[server]\nflush_interval = \"50ms\"\ntls_cert_file = \"{}\"\ntls_key_file = \"{}\"\n\
             tls_client_ca_file = \"{}\"\nbearer_token_file = \"token\"\n\
             [[sink]]\nname = \"store\"\noutput = \"file:store.jsonl\"\n",
            pem("server.pem"),
            pem("server.key"),
            pem("main-ca.pem")
        ),
    )
    .unwrap();
    let (mut downstream, down_grpc) = start(down.path());
    let up = tempfile::tempdir().unwrap();
    std::fs::write(up.path().join("token"), format!("{token}\n")).unwrap();
    let exporter = |name: &str, url: String| {
        format!(
            "[[sink]]\nname = \"{name}\"\noutput = \"{url}\"\ntls_ca_file = \"{}\"\n\
             tls_cert_file = \"{}\"\ntls_key_file = \"{}\"\nbearer_token_file = \"token\"\n",
            pem("main-ca.pem"),
            pem("client.pem"),
            pem("client.key")
        )
    };
    std::fs::write(
        up.path().join("policy.toml"),
        format!(
            "[server]\nflush_interval = \"50ms\"\n{}{}",
            exporter("grpcs", format!("otlp+grpcs://{down_grpc}")),
            exporter("https", format!("otlp+https://{}", downstream.addr)),
        ),
    )
    .unwrap();
    let (mut upstream, up_grpc) = start(up.path());
    let n = 10u32;
    for i in 0..n {
        call(&up_grpc, TRACES_PATH, body(i), &Call::default()).unwrap();
    }
    poll("every record forwarded by both sinks", || {
        let s = upstream.status();
        let out = |k: usize| s["sinks"][k]["records_out"]["standard"].as_u64();
        (out(0) == Some(u64::from(n)) && out(1) == Some(u64::from(n))).then_some(())
    });
    upstream.terminate();
    downstream.terminate();
    let got = std::fs::read_to_string(down.path().join("store.jsonl")).unwrap();
    for i in 0..n {
        let id = format!("\"chatcmpl-{i:x}\"");
        assert_eq!(got.matches(&id).count(), 2, "{id} once per sink in {got}");
    }
    let log = std::fs::read_to_string(up.path().join("serve.log")).unwrap();
    assert!(!log.contains(token), "{log}");
}

fn policy_check(dir: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tracegate"))
        .args(["policy", "check"])
        .arg(dir.join("policy.toml"))
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn policy_check_refuses_bad_tls_settings_and_warns_about_exposed_cleartext() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pki = Pki::new(d, "main");
    pki.leaf("server", &["127.0.0.1"]);
    let secret_key = std::fs::read_to_string(d.join("server.key")).unwrap();
    let other = Pki::new(d, "other");
    other.leaf("mismatch", &["127.0.0.1"]);
    let cases: &[(&str, &str)] = &[
        // A key that is not the certificate's.
        (
            "tls_cert_file = \"server.pem\"\ntls_key_file = \"mismatch.key\"",
            "TLS",
        ),
        // Not PEM at all.
        (
            "tls_cert_file = \"policy.toml\"\ntls_key_file = \"server.key\"",
            "no PEM certificate",
        ),
        // A missing file, and half a pair.
        (
            "tls_cert_file = \"nope.pem\"\ntls_key_file = \"server.key\"",
            "nope.pem",
        ),
        ("tls_cert_file = \"server.pem\"", "go together"),
        // A client CA without a server certificate.
        ("tls_client_ca_file = \"main-ca.pem\"", "needs"),
        // A token too short to be a check.
        ("bearer_token_file = \"short\"", "at least 16"),
    ];
    std::fs::write(d.join("short"), "abc\n").unwrap();
    for (extra, want) in cases {
        std::fs::write(d.join("policy.toml"), format!("[server]\n{extra}\n")).unwrap();
        let (code, text) = policy_check(d);
        assert_eq!(code, 2, "{extra}: {text}");
        assert!(text.contains(want), "{extra}: {text}");
        assert!(!text.contains(secret_key.lines().nth(1).unwrap()), "{text}");
    }
    // TLS keys or a token on a cleartext output: refused, not ignored.
    for out in ["otlp+grpc://127.0.0.1:4317", "otlp+http://127.0.0.1:4318"] {
        std::fs::write(
            d.join("policy.toml"),
            format!("[[sink]]\nname = \"x\"\noutput = \"{out}\"\nbearer_token_file = \"short\"\n"),
        )
        .unwrap();
        let (code, text) = policy_check(d);
        assert_eq!(code, 2, "{text}");
        assert!(text.contains("needs a TLS output"), "{text}");
    }
    // An exporter URL with a path, or no port: refused.
    for out in ["otlp+grpc://127.0.0.1:4317/v1", "otlp+grpcs://collector"] {
        std::fs::write(
            d.join("policy.toml"),
            format!("[[sink]]\nname = \"x\"\noutput = \"{out}\"\n"),
        )
        .unwrap();
        assert_eq!(policy_check(d).0, 2, "{out}");
    }
    // Non-loopback without TLS: valid, and said.
    replace_policy(
        d,
        "[server]\nlisten = \"0.0.0.0:4318\"\ngrpc_listen = \"0.0.0.0:4317\"\n",
    );
    let (code, text) = policy_check(d);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("`server.listen` (0.0.0.0:4318) is not loopback and has no TLS"),
        "{text}"
    );
    assert!(
        text.contains("`server.grpc_listen` (0.0.0.0:4317) is not loopback and has no TLS"),
        "{text}"
    );
    // With TLS and a token: no warning.
    std::fs::write(d.join("token"), "a-long-enough-token-123\n").unwrap();
    replace_policy(
        d,
        "[server]\nlisten = \"0.0.0.0:4318\"\ngrpc_listen = \"off\"\ntls_cert_file = \"server.pem\"\n\
         tls_key_file = \"server.key\"\nbearer_token_file = \"token\"\n",
    );
    let (code, text) = policy_check(d);
    assert_eq!(code, 0, "{text}");
    assert!(!text.contains("warning:"), "{text}");
    assert!(text.contains("otlp/grpc off"), "{text}");
}

/// The rustls check of a policy's TLS files is the daemon's, handed to
/// the loaders of every command, not only `policy check` and `serve`: a
/// command that ran on a policy with a broken certificate would hide the
/// breakage until the daemon starts.
#[test]
fn every_command_refuses_a_policy_whose_certificate_is_broken() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pki = Pki::new(d, "main");
    pki.leaf("server", &["127.0.0.1"]);
    let secret_key = std::fs::read_to_string(d.join("server.key")).unwrap();
    std::fs::write(d.join("broken.pem"), "not a certificate\n").unwrap();
    let policy = d.join("policy.toml");
    std::fs::write(
        &policy,
        "[server]\ntls_cert_file = \"broken.pem\"\ntls_key_file = \"server.key\"\n\
         [[sink]]\nname = \"out\"\n",
    )
    .unwrap();
    let p = policy.to_str().unwrap();
    let input = b"{\"id\":\"chatcmpl-1\"}\n";
    for args in [
        &["policy", "check", p][..],
        &["policy", "check", "--error-format", "json", p],
        &["check", "--policy", p, "-"],
        &["filter", "--policy", p, "--sink", "out"],
        &["redact", "--policy", p],
    ] {
        let r = crate::cli::tracegate(args, input);
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
        let text = r.stdout + &r.stderr;
        assert!(text.contains("no PEM certificate"), "{args:?}: {text}");
        assert!(!text.contains(secret_key.lines().nth(1).unwrap()), "{text}");
    }
}

#[test]
fn keys_and_tokens_never_appear_in_debug_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pki = Pki::new(d, "main");
    pki.leaf("server", &["127.0.0.1"]);
    pki.leaf("client", &["up"]);
    let token = "a-token-nobody-may-print-0123";
    std::fs::write(d.join("token"), token).unwrap();
    std::fs::write(
        d.join("policy.toml"),
        "[server]\ntls_cert_file = \"server.pem\"\ntls_key_file = \"server.key\"\nbearer_token_file = \"token\"\n\
         [[sink]]\nname = \"x\"\noutput = \"otlp+grpcs://127.0.0.1:4317\"\ntls_ca_file = \"main-ca.pem\"\n\
         tls_cert_file = \"client.pem\"\ntls_key_file = \"client.key\"\nbearer_token_file = \"token\"\n",
    )
    .unwrap();
    let policy = tracegate::Policy::load(&d.join("policy.toml")).unwrap();
    let debug = format!("{policy:?}");
    for key in ["server.key", "client.key"] {
        let pem = std::fs::read_to_string(d.join(key)).unwrap();
        let body = pem.lines().nth(1).unwrap();
        assert!(!debug.contains(body), "{key} in Debug");
    }
    assert!(!debug.contains(token), "the token in Debug");
}

/// Slow clients on the gRPC port: a connection that never sends the
/// HTTP/2 preface, or never finishes a TLS handshake, is closed within the
/// policy's timeouts instead of holding a slot.
#[test]
fn silent_grpc_and_tls_connections_are_closed_on_time() {
    use std::time::{Duration, Instant};
    for tls in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let pki = Pki::new(d, "main");
        pki.leaf("server", &["127.0.0.1"]);
        let keys = if tls {
            "tls_cert_file = \"server.pem\"\ntls_key_file = \"server.key\"\n"
        } else {
            ""
        };
        std::fs::write(
            d.join("policy.toml"),
            format!("[server]\nheader_read_timeout = \"1s\"\nidle_timeout = \"1s\"\n{keys}"),
        )
        .unwrap();
        let (mut daemon, grpc) = start(d);
        let mut s = std::net::TcpStream::connect(&grpc).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let t = Instant::now();
        let mut buf = Vec::new();
        // The server may send its own preface (SETTINGS) first; then EOF.
        let r = s.read_to_end(&mut buf);
        assert!(r.is_ok(), "tls {tls}: not closed: {r:?}");
        assert!(
            t.elapsed() < Duration::from_secs(8),
            "tls {tls}: {:?}",
            t.elapsed()
        );
        daemon.terminate();
    }
}
