//! Issue 36, third round: the classes the second held-out family
//! (`scripts/detect_heldout2.py`) found, closed by structure. Each test
//! failed on the code before its fix: the misses (a URL whose scheme
//! names a dialect and a driver, a Basic credential stored under an
//! `auth` key) and the false positives (a pagination cursor under a key
//! ending in `token`, four-part versions under a dunder key, in a
//! property list's value element, and pinned by a package manager).

use super::tests_detectors::{all, keeps, redacts};

/// `postgresql+psycopg2://user:password@host`: a scheme that names a
/// dialect and its driver runs past 16 bytes; the password goes all the
/// same.
#[test]
fn passwords_in_urls_with_long_schemes() {
    let r = all();
    for (text, pw) in [
        (
            "SQLALCHEMY_DATABASE_URI = \"postgresql+psycopg://app:Q7vhT2mLx9pRz4Kd@db.internal:5432/app\"",
            "Q7vhT2mLx9pRz4Kd",
        ),
        (
            "engine = create_engine(\"mysql+mysqlconnector://etl:Wq83nZpL0xTr@db/shop\")",
            "Wq83nZpL0xTr",
        ),
        (
            "url: postgresql+asyncpg://svc:n0tS0Secret4u@10.0.4.12/warehouse",
            "n0tS0Secret4u",
        ),
    ] {
        redacts(&r, text, pw, "url_credentials");
    }
}

/// A Basic credential stored as base64 of `user:password` under an
/// `auth` key (docker's `config.json`, `.npmrc`'s `_auth`): the value
/// goes when it decodes to such a pair; other values under `auth` stay.
#[test]
fn basic_pairs_under_auth_keys() {
    let r = all();
    // base64("deploy:Xk29fLmQpz81Tn4ArW0v"), base64("ci-bot:s3cr3tPa55")
    for (text, b64) in [
        (
            "{\n  \"auths\": {\n    \"registry.example.com\": {\n      \"auth\": \"ZGVwbG95OlhrMjlmTG1RcHo4MVRuNEFyVzB2\"\n    }\n  }\n}",
            "ZGVwbG95OlhrMjlmTG1RcHo4MVRuNEFyVzB2",
        ),
        (
            "registry=https://npm.example.com/\n_auth=Y2ktYm90OnMzY3IzdFBhNTU=\n",
            "Y2ktYm90OnMzY3IzdFBhNTU=",
        ),
        ("auth: Y2ktYm90OnMzY3IzdFBhNTU=", "Y2ktYm90OnMzY3IzdFBhNTU="),
    ] {
        redacts(&r, text, b64, "api_key");
    }
    for text in [
        "auth: true",
        "\"auth\": \"kerberos\"",
        "auth = \"required\"",
        // base64 of text with no `user:password` pair.
        "\"auth\": \"aGVsbG8gd29ybGQ=\"",
        "oauth: Y2ktYm90OnMzY3IzdFBhNTU=",
    ] {
        keeps(&r, text);
    }
    // A JWT under `auth` (a cookie) is the jwt detector's, whole.
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    let (out, res) = r.redact_to_string(&format!("Cookie: theme=dark; auth={jwt}; lang=fr"));
    assert_eq!(out, "Cookie: theme=dark; auth=[REDACTED:jwt]; lang=fr");
    assert_eq!(res.hits.get("api_key"), 0);
}

/// A key ending in `token` whose word before it names a place in a
/// listing (`nextPageToken`, `page_token`, `NextToken`,
/// `continuationToken`, `syncToken`) holds a pagination cursor, not a
/// credential; `access_token`, `refresh_token`, `csrf_token` and a bare
/// `token` still hold secrets.
#[test]
fn pagination_cursors_under_token_keys_are_not_secrets() {
    let r = all();
    let cursor = "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA";
    for key in [
        "\"nextPageToken\": \"",
        "page_token=",
        "NextToken: ",
        "\"continuationToken\": \"",
        "syncToken: ",
        "NEXT_PAGE_TOKEN=",
        "prev-token: ",
        "\"resumeToken\": \"",
    ] {
        keeps(&r, &format!("{key}{cursor}\"\n"));
    }
    for key in [
        "\"refresh_token\": \"",
        "access_token=",
        "csrfToken: ",
        "token: ",
        "\"pageSize\": 10, \"token\": \"",
    ] {
        redacts(&r, &format!("{key}{cursor}\"\n"), cursor, "api_key");
    }
}

/// Four-part versions in syntaxes the version key did not read: a
/// dunder key (`__version__`), a property list's value element under
/// `<key>CFBundleVersion</key>` on the line above, a key whose last
/// part names a type (`versionName`), and a package pinned by `=`
/// (`datadog-agent=7.52.1.1`). Addresses in the same syntaxes stay
/// addresses.
#[test]
fn four_part_versions_in_more_syntaxes() {
    let r = all();
    for text in [
        "__version__ = \"4.20.3.1\"\n",
        "__VERSION__='10.2.0.7'",
        "<key>CFBundleVersion</key>\n<string>12.3.1.44</string>\n",
        "<key>CFBundleShortVersionString</key>\n\t<string>2.10.4.1</string>",
        "<name>version</name><value>3.1.4.1</value>",
        "    - name: install agent\n      apt:\n        name: \"datadog-agent=7.12.2.3\"\n",
        "apt-get install -y libfoo-dev=2.1.0.3 curl",
        "pkgs: [python3-lib+extra=1.2.3.4]",
    ] {
        keeps(&r, text);
    }
    for (text, ip) in [
        (
            "<key>ServerAddress</key>\n<string>10.1.2.3</string>",
            "10.1.2.3",
        ),
        ("bind-addr=10.0.0.1", "10.0.0.1"),
        ("db-host=10.0.0.2 port=5432", "10.0.0.2"),
        ("web-01=10.0.0.5", "10.0.0.5"),
        ("host=10.1.2.3", "10.1.2.3"),
        ("db_host=10.1.2.4", "10.1.2.4"),
        ("Version: 2\n__host__ = \"10.1.2.5\"", "10.1.2.5"),
    ] {
        redacts(&r, text, ip, "ipv4");
    }
}
