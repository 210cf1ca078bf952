"""The seventeenth held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout17`; not run on its own.

An eighteenth template family, written and committed before any detector
change of the round that tunes on heldout16, from real-world formats and
not from the detectors' code: the session that wrote it did not read the
detectors (`crates/tracegate/src/redact`, `finding*`), their
documentation, the detection sections of benches/README.md or any
split's report or spans; it read `detect_corpus.py` for the interface and
grepped the sixteen earlier families only for surroundings and value
shapes to keep clear of. Only its summary and per-class table are looked
at until the round's final measurement.

Surroundings that no other family writes, most from framework and
runtime logs, test and debugging output, recorded HTTP, API clients,
deploy and CI configs, cluster and database admin output, home and
embedded devices, analytics and identity events: Kubernetes klog lines,
Spring Boot and .NET console logs, Rust `tracing` spans, Apple unified
log lines, pytest assertion output, Jest snapshots, VCR cassettes,
Playwright `storageState`, gdb `print`, Jekyll/Hugo front matter, LaTeX
`\\newcommand` and `lstlisting`, RSS items, Slack export JSON; Bruno,
Hurl, HTTPie, Artillery, JMeter `.jmx`, `cypress.env.json`; Snowflake
`snowsql` config, OCI `~/.oci/config`, `wrangler.toml`, `vercel.json`,
`fly.toml`, App Engine `app.yaml`, Serverless, `samconfig.toml`,
CodeBuild `buildspec.yml`, Cloud Build, Drone, Bitbucket Pipelines,
Travis `env`, Taskfile, Tiltfile, Skaffold, `argocd login`, Concourse
`fly set-pipeline`, Airflow `default_args` and `variables set`, `kubeadm
join`, `docker swarm join`, k3s install lines, ESPHome, Home Assistant
`secrets.yaml` and notify targets, Arduino `WiFi.begin`, OpenWrt
`wireless`, EdgeOS `set service`; `kubectl get -o wide` and `describe`,
`docker network inspect`, `aws ec2 describe-instances`, `terraform plan`,
Ansible `ok: [...]`, Nagios host and contact objects, `mtr`, `iperf3`,
`ssh -v`, `nc -v`, firewalld rich rules, `etcdctl member list`, `nomad
server members`, `nodetool status`, Elasticsearch `_cat/nodes`, Redis
`CLUSTER NODES`, MongoDB `rs.status()`, `kafka-broker-api-versions`,
MySQL `SHOW PROCESSLIST`, `pg_stat_replication`, `istioctl proxy-config
endpoints`, macOS `ndp -an`, `netsh ... ipv6 show neighbors`, Vault PKI
`issue` output; `Co-authored-by:`/`Reviewed-by:` trailers,
`pyproject.toml`, Helm `Chart.yaml`, OCI image labels, Cargo
`authors`, certbot and acme.sh registration, Apple `.mobileconfig`,
Auth0 logs, Sentry events, Segment `identify`, `git config -l`,
schema.org JSON-LD, `sms:` links; the URLA 1003, W-4, IRS e-file XML,
a credit report, a background-check API, Workday and Salesforce rows;
Stripe form posts, Apple Pay decrypted tokens, CyberSource, Moneris,
Checkout.com and Adyen requests, a Japanese card form with full-width
digits, OCR of a card photo; FatturaPA, Bezahlcode, Berlin Group
NextGenPSD2, Mollie, Wise, DATEV, GoCardless, Facturae, a LaTeX invoice
and a SEPA mandate; prose in Lower Sorbian, Ladin, Ligurian,
Piedmontese, Venetian, Neapolitan, Sicilian, Aragonese, Mirandese,
Picard, Limburgish, North Frisian, Alemannic, Bavarian, Scots, Cornish,
Aromanian, Rusyn, Silesian, Kabyle, Moroccan and Egyptian Arabic,
Hokkien, Hakka, Shanghainese, Zhuang, Tetum, Tahitian, Dzongkha, Meitei
(Meitei Mayek), Manding (N'Ko), Fula (Adlam), Cree (syllabics),
Mauritian Creole, Jamaican Patois, Sranan Tongo, Bemba, Northern Sotho,
Kirundi, Navajo, Mapudungun, Ossetian, Chechen and Udmurt (short phrases
written by the session, only roughly idiomatic, in several scripts only
approximations).

Values in shapes the earlier families did not write as such a set:
phones of Libya, São Tomé, Sudan, Djibouti, Burundi, Malawi, Lesotho,
Eswatini, San Marino, Saint Pierre, Norfolk Island, Wallis and Futuna,
the Cook Islands, Kuwait, Yemen, Palestine, Bahrain and 16 North
American numbering plan territories (Bermuda, Guam, the Northern
Marianas, the US and British Virgin Islands, Antigua, St Kitts, St
Lucia, Dominica, Grenada, St Vincent, Anguilla, Montserrat, Turks and
Caicos, Sint Maarten, the Dominican Republic), once also as an `sms:`
link's compact E.164; cards of Bancontact (16 and 19 digits), DinaCard,
BORICA, Carnet, China T-Union, Laser, Solo, Switch, UkrCard and 19-digit
JCB, grouped by thin or figure spaces or by non-breaking or Unicode
hyphens, or in full-width digits with ideographic spaces; IBANs of 28
countries in the containers above; SSNs in the forms above, solid only
in the IRS tags that name them; provider tokens no family wrote
(Anthropic admin, OpenAI service-account, SonarQube, GitLab deploy,
trigger and CI-build tokens, GitHub refresh tokens, Alibaba, Tencent,
Scaleway and Exoscale key pairs, Backblaze, Braintree, Razorpay,
WooCommerce, Brevo, HubSpot, Intercom, rotating Slack tokens, Airtable,
Asana, ClickUp, Typeform, Pushbullet, Twitch IRC, Discord bots,
Honeybadger, LaunchDarkly, Harness, Supabase, Jina, Firecrawl, E2B,
Browserbase, Brave, W&B, Anyscale, PostHog personal keys, Modal,
Codecov, Snyk, Vercel, Cloudflare tunnel tokens, Splunk HEC, Fauna,
Xata, Appwrite, Portainer, Rancher), Kubernetes bootstrap tokens, Swarm
join tokens, k3s node tokens and plain passwords in every config above;
JWTs with `logout+jwt` and `token-introspection+jwt` types, EdDSA and
PS384, as `client_assertion` and `logout_token` form fields, in APNs
HTTP/2 headers and after `kubectl create token`; private keys as
`SSH2 ENCRYPTED PRIVATE KEY` (RFC 4716 armour) and `TSS2 PRIVATE KEY`
blocks, URL-encoded in a form body, in a Vault PKI table, Slack JSON,
Jest snapshots, gdb strings, LaTeX listings, VCR JSON, RSS CDATA, YAML
front matter and a Tiltfile; IPv6 of cloud and ISP prefixes, 6to4 and
Teredo; URLs with a password for `databricks` (a `dapi` token),
`pyamqp`, `sentinel` (twice in one broker URL), `stomp`, `cloudinary`,
`ftpes`, `fish`, `druid`, `kylin`, `oracle+oracledb`, `mssql+pymssql`,
`b2`, CVS `:pserver:`, `redshift+psycopg2`, `vertica+vertica_python`,
`teradatasql`, `crate`, `mariadb`, `postgresql+asyncpg`,
`mysql+asyncmy`, `elasticsearch+https`, Celery `db+postgresql` and a
Kombu `sqs://` URL whose user is an AWS key id.

Look-alikes no family wrote as such a set: ciphertext where a secret
was (SOPS `ENC[...]`, Sealed Secrets, Vault transit, KMS blobs, Travis
`secure:`, Adyen client-side encryption), BICs beside an IBAN, password hashes (bcrypt,
sha512-crypt, Argon2id, Django PBKDF2, PostgreSQL SCRAM, MySQL native,
Werkzeug scrypt), public key material (RFC 4716 public keys, PKCS#7,
`RSA PUBLIC KEY`, `TRUSTED CERTIFICATE`, JWKS `n`, DKIM `p=`, DNSKEY,
minisign public keys, HPKP pins), identifiers that key rules take for
keys (AWS `AROA`/`AIDA` unique ids, OCIDs, OCI fingerprints, GCP service
account unique ids, Alibaba ARNs, PostHog project keys, reCAPTCHA and
Turnstile site keys, Mapbox `pk.` tokens, AdSense publisher ids, Google
Ads customer ids, Meta pixel ids, detached JWS signatures, the kubeadm
CA hash), ids (KSUID, Nano ID, CUID, XID, Firebase push ids, YouTube
ids, Spotify URIs, Slack ids), fingerprints and hashes (JA3, JA4, JARM,
ssdeep, TLSH, BitTorrent info hashes, Git LFS oids), registry numbers
(ISNI, ISAN, IMSI, IMEISV, GLN, NATO stock numbers, bag tags, LOINC,
Ensembl, GO terms, PMIDs), places (geohashes, Swiss LV95, UTM, DMS
coordinates, map tiles), organisations' tax and registry numbers
(NPWP, Chilean RUT, CUIT, Belgian KBO, Swiss UID, Singapore UEN,
Chinese USCC, Japanese corporate numbers, Philippine TIN, Hungarian
adószám, FCC FRN, SAM UEI, Canadian BN), money in lakh, Swiss and
French groupings, Swedish bankgiro, Czech payment symbols, Danish FIK
lines, and shapes of `@`, `:` and dots that are none of the classes
(Homebrew `name@version`, Git `HEAD@{n}`, Bazel `@repo//`, IBAN format
templates, Debian epochs, Android build ids, kernel releases, Excel
serials, Julian dates, Zigbee IEEE addresses, Bible references, aspect
ratios). A look-alike any run of whose digits (solid, or grouped by one
space or dash) would pass as a card number is drawn again.

It reuses only the value makers of `detect_corpus.py` (luhn digit and
check) and the small ones of `detect_values.py`. Its texts are drawn
from their own seed (`detect_corpus.py` offsets the split's seed by
17017). It is the project's own, like the others.
"""
import base64
import json
import uuid

from detect_values import AN, D, HEX, UHEX, UP, LOW, B64, B64URL, _d, _nz, _put, _seq, _s, _ssn, _tok, with_check, family_doc

B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
B36L = "0123456789abcdefghijklmnopqrstuvwxyz"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
FULLWIDTH = str.maketrans("0123456789", "\uff10\uff11\uff12\uff13\uff14\uff15\uff16\uff17\uff18\uff19")


# ------------------------------------------------------------ value makers

def _iban(r):
    """An IBAN of a country of the registry, with its mod-97 check."""
    country, bban = r.choice([
        ("DE", lambda: _d(r, 18)),
        ("IT", lambda: _s(r, UP, 1) + _d(r, 10) + _s(r, UP + D, 12)),
        ("BE", lambda: _d(r, 12)),
        ("FR", lambda: _d(r, 10) + _s(r, UP + D, 11) + _d(r, 2)),
        ("ES", lambda: _d(r, 20)),
        ("NL", lambda: _s(r, UP, 4) + _d(r, 10)),
        ("AT", lambda: _d(r, 16)),
        ("CH", lambda: _d(r, 5) + _s(r, UP + D, 12)),
        ("PL", lambda: _d(r, 24)),
        ("CZ", lambda: _d(r, 20)),
        ("SE", lambda: _d(r, 20)),
        ("DK", lambda: _d(r, 14)),
        ("PT", lambda: _d(r, 21)),
        ("IE", lambda: _s(r, UP, 4) + _d(r, 14)),
        ("GB", lambda: _s(r, UP, 4) + _d(r, 14)),
        ("HU", lambda: _d(r, 24)),
        ("RO", lambda: _s(r, UP, 4) + _s(r, UP + D, 16)),
        ("BG", lambda: _s(r, UP, 4) + _d(r, 6) + _s(r, UP + D, 8)),
        ("TR", lambda: _d(r, 6) + _s(r, UP + D, 16)),
        ("SM", lambda: _s(r, UP, 1) + _d(r, 10) + _s(r, UP + D, 12)),
        ("KW", lambda: _s(r, UP, 4) + _s(r, UP + D, 22)),
        ("BH", lambda: _s(r, UP, 4) + _s(r, UP + D, 14)),
        ("PS", lambda: _s(r, UP, 4) + _s(r, UP + D, 21)),
        ("YE", lambda: _s(r, UP, 4) + _d(r, 4) + _s(r, UP + D, 18)),
        ("BI", lambda: _d(r, 23)),
        ("SD", lambda: _d(r, 14)),
        ("LY", lambda: _d(r, 21)),
        ("ST", lambda: _d(r, 21)),
    ])
    return with_check(country, bban())


def _group(s, sep=" ", n=4):
    return sep.join(s[i:i + n] for i in range(0, len(s), n))


def _card(r, m):
    """A card of a brand no family named, or a usual one, with its Luhn digit."""
    kind = r.choice(["bancontact", "bancontact19", "dinacard", "borica", "carnet", "tunion", "laser", "laser19",
                     "solo", "switch", "ukrcard", "jcb19", "visa", "mc2", "amex", "discover"])
    prefix, n = {
        "bancontact": ("6703", 16),
        "bancontact19": ("6703", 19),
        "dinacard": ("9891", 16),
        "borica": ("2205", 16),
        "carnet": (r.choice(["506199", "506221", "502275"]), 16),
        "tunion": ("31", 19),
        "laser": (r.choice(["6304", "6706", "6771", "6709"]), 16),
        "laser19": (r.choice(["6304", "6706"]), 19),
        "solo": ("6767", r.choice([16, 18, 19])),
        "switch": (r.choice(["6759", "633110", "4936"]), 16),
        "ukrcard": ("6040" + r.choice(["01", "05", "11"]), 16),
        "jcb19": ("35" + str(r.randint(28, 89)), 19),
        "visa": ("4", 16),
        "mc2": (str(r.randint(2221, 2720)), 16),
        "amex": (r.choice(["34", "37"]), 15),
        "discover": ("65", 16),
    }[kind]
    body = prefix + _d(r, n - 1 - len(prefix))
    return body + m.luhn_digit(body), kind


def _card_shown(r, c):
    """How a form, a log or a person writes the number (separators no
    family used: thin and figure spaces, non-breaking and Unicode hyphens)."""
    if len(c) == 15:
        return r.choice(["%s %s %s" % (c[:4], c[4:10], c[10:]), "%s\u2009%s\u2009%s" % (c[:4], c[4:10], c[10:]), c])
    if len(c) == 18:
        return r.choice([c, "%s %s %s" % (c[:6], c[6:12], c[12:])])
    return r.choice([_group(c), _group(c, "\u2009"), _group(c, "\u2007"), _group(c, "\u2011"), _group(c, "\u2010"), c])


PHONES = [
    ("ly", lambda r: r.choice(["+218 9%s-%s", "+218 9%s %s"]) % (r.choice("1234"), _d(r, 7))),
    ("st", lambda r: "+239 9%s %s" % (_d(r, 2), _d(r, 4))),
    ("sd", lambda r: "+249 9%s %s %s" % (r.choice("0129"), _d(r, 3), _d(r, 4))),
    ("dj", lambda r: "+253 77 %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2))),
    ("bi", lambda r: "+257 7%s %s %s %s" % (r.choice("15679"), _d(r, 2), _d(r, 2), _d(r, 2))),
    ("mw", lambda r: "+265 %s %s %s %s" % (r.choice(["991", "999", "881", "888"]), _d(r, 2), _d(r, 2), _d(r, 2))),
    ("ls", lambda r: "+266 %s%s %s" % (r.choice("56"), _d(r, 3), _d(r, 4))),
    ("sz", lambda r: "+268 7%s%s %s" % (r.choice("689"), _d(r, 2), _d(r, 4))),
    ("sm", lambda r: "+378 66 %s %s" % (_d(r, 2), _d(r, 4))),
    ("pm", lambda r: "+508 55 %s %s" % (_d(r, 2), _d(r, 2))),
    ("nf", lambda r: "+672 3 5%s" % _d(r, 4)),
    ("wf", lambda r: "+681 82 %s %s" % (_d(r, 2), _d(r, 2))),
    ("ck", lambda r: "+682 5%s %s" % (_d(r, 1), _d(r, 3))),
    ("kw", lambda r: "+965 %s%s %s" % (r.choice("569"), _d(r, 3), _d(r, 4))),
    ("ye", lambda r: "+967 7%s %s %s" % (r.choice("0137"), _d(r, 3), _d(r, 4))),
    ("ps", lambda r: "+970 59%s %s %s" % (r.choice("2789"), _d(r, 3), _d(r, 3))),
    ("bh", lambda r: "+973 3%s %s" % (_d(r, 3), _d(r, 4))),
    ("bm", lambda r: "+1 (441) %s%s-%s" % (r.choice("357"), _d(r, 2), _d(r, 4))),
    ("gu", lambda r: "+1 671 %s%s %s" % (r.choice("4789"), _d(r, 2), _d(r, 4))),
    ("mp", lambda r: "+1-670-%s%s-%s" % (r.choice("2347"), _d(r, 2), _d(r, 4))),
    ("vi", lambda r: "+1 340 %s%s %s" % (r.choice("6789"), _d(r, 2), _d(r, 4))),
    ("vg", lambda r: "+1 (284) %s%s-%s" % (r.choice("345"), _d(r, 2), _d(r, 4))),
    ("ag", lambda r: "+1 268 %s%s %s" % (r.choice("47"), _d(r, 2), _d(r, 4))),
    ("kn", lambda r: "+1 869 %s%s %s" % (r.choice("567"), _d(r, 2), _d(r, 4))),
    ("lc", lambda r: "+1 758 %s%s %s" % (r.choice("2457"), _d(r, 2), _d(r, 4))),
    ("dm", lambda r: "+1-767-%s%s-%s" % (r.choice("2"), _d(r, 2), _d(r, 4))),
    ("gd", lambda r: "+1 473 %s%s %s" % (r.choice("4"), _d(r, 2), _d(r, 4))),
    ("vc", lambda r: "+1 784 %s%s %s" % (r.choice("45"), _d(r, 2), _d(r, 4))),
    ("ai", lambda r: "+1 264 %s%s %s" % (r.choice("45"), _d(r, 2), _d(r, 4))),
    ("ms", lambda r: "+1 664 %s%s %s" % (r.choice("4"), _d(r, 2), _d(r, 4))),
    ("tc", lambda r: "+1 649 %s%s %s" % (r.choice("2349"), _d(r, 2), _d(r, 4))),
    ("sx", lambda r: "+1 721 %s%s %s" % (r.choice("5"), _d(r, 2), _d(r, 4))),
    ("do", lambda r: "+1 %s %s%s %s" % (r.choice(["809", "829", "849"]), _nz(r), _d(r, 2), _d(r, 4))),
]


def _phone(r):
    return r.choice(PHONES)


def _v4(r):
    if r.random() < 0.3:
        return r.choice([
            lambda: "10.%d.%d.%d" % (r.randint(0, 255), r.randint(0, 255), r.randint(2, 254)),
            lambda: "172.%d.%d.%d" % (r.randint(16, 31), r.randint(0, 255), r.randint(2, 254)),
            lambda: "192.168.%d.%d" % (r.randint(0, 255), r.randint(2, 254)),
            lambda: "100.%d.%d.%d" % (r.randint(64, 127), r.randint(0, 255), r.randint(2, 254)),
        ])()
    return "%d.%d.%d.%d" % (r.choice([2, 5, 13, 18, 23, 38, 44, 46, 50, 62, 69, 74, 82, 89, 94, 104, 109, 128, 138,
                                      146, 154, 159, 165, 176, 178, 188, 194, 202, 209, 212]),
                            r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2600:1f18:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),      # AWS
        lambda: "2600:1900:%s:%s::%s" % (g(), g(), g()),                             # GCP
        lambda: "2603:1030:%s:%s::%s" % (g(), g(), g()),                             # Azure
        lambda: "2601:%s:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g(), g()),   # a cable ISP
        lambda: "2003:%s:%s:%s::%s" % (g(), g(), g(), g()),
        lambda: "2a01:e0a:%s:%s::%s" % (g(), g(), g()),
        lambda: "2405:201:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),
        lambda: "240e:%s:%s:%s::%s" % (g(), g(), g(), g()),
        lambda: "2002:%02x%02x:%02x%02x::%s" % (r.randint(1, 223), r.randint(0, 255), r.randint(0, 255),
                                                r.randint(1, 254), g()),               # 6to4
        lambda: "2001:0:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),           # Teredo
    ])()


def _b64u(raw):
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _jwt(r):
    alg = r.choice(["RS256", "ES256", "RS512", "EdDSA", "HS256", "PS384"])
    head = {"alg": alg}
    if r.random() < 0.7:
        head["typ"] = r.choice(["JWT", "logout+jwt", "token-introspection+jwt", "jwt"])
    if r.random() < 0.6:
        head["kid"] = r.choice([_s(r, HEX, 40), _s(r, B64URL, 43), "k" + _d(r, 4)])
    body = {"iss": r.choice(["https://login.example.net", "https://sso.example.org/realms/ops",
                             "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_" + _s(r, AN, 9)]),
            "sub": r.choice([str(uuid.UUID(int=r.getrandbits(128), version=4)), "auth0|" + _s(r, HEX, 24)]),
            "aud": r.choice(["billing-api", "ops-console", _s(r, LOW + D, 26)]),
            "iat": r.randint(1_760_000_000, 1_790_000_000)}
    body["exp"] = body["iat"] + r.choice([300, 900, 3600])
    if r.random() < 0.5:
        body["jti"] = _s(r, B64URL, 22)
    sig = {"RS256": 342, "RS512": 342, "PS384": 342, "ES256": 86, "EdDSA": 86, "HS256": 43}[alg]
    return "%s.%s.%s" % (_b64u(json.dumps(head, separators=(",", ":"))), _b64u(json.dumps(body, separators=(",", ":"))),
                         _s(r, B64URL, sig))


def _pem_lines(r, kind):
    """The lines of a private key block of `kind` (PEM, or the SSH2 format
    of RFC 4716's vendors, 70 columns with a Comment header)."""
    if kind == "SSH2":
        body = [_s(r, B64, 70) for _ in range(r.randint(8, 14))] + [_s(r, B64, r.randint(10, 60)) + "="]
        return (["---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----", "Comment: \"%d-bit rsa, ops@bastion\"" % r.choice([2048, 4096])]
                + body + ["---- END SSH2 ENCRYPTED PRIVATE KEY ----"])
    body = [_s(r, B64, 64) for _ in range(r.randint(4, 10))] + [_s(r, B64, r.randint(8, 60)) + r.choice(["", "=", "=="])]
    return ["-----BEGIN %sPRIVATE KEY-----" % kind] + body + ["-----END %sPRIVATE KEY-----" % kind]


def _pw(r):
    """A password as people pick them for service accounts."""
    return _tok(r, r.randint(12, 22)) + r.choice(["", "", "!", "#", "*", "%", "?", "=", "."])


def _url_pw(r):
    """A password as it stands in a URL's user info, percent-encoded where it must be."""
    return _tok(r, r.randint(10, 22)) + r.choice(["", "", "%21", "%3F", "%23", "%5E" + _d(r, 2), "%26", "-", "_"])


# ------------------------------------------------------------ prose
#
# Short phrases written by the session, only roughly idiomatic (several
# scripts here it does not read, where the phrase is an approximation).

PROSE = {
    "dsb": "Pšosym kontaktujśo {} ",                  # Lower Sorbian
    "lld": "Por plajëi, contatede {} ",               # Ladin
    "lij": "Pe piaxei, contattæ {} ",                 # Ligurian
    "pms": "Për piasì, contaté {} ",                  # Piedmontese
    "vec": "Par piaser, contatè {} ",                 # Venetian
    "nap": "Pe' piacere, cuntattate {} ",             # Neapolitan
    "scn": "Pi favuri, cuntattati {} ",               # Sicilian
    "an": "Por favor, meta-se en contacto con {} ",   # Aragonese
    "mwl": "Por fabor, cuntate {} ",                  # Mirandese
    "pcd": "Pour d'bon, contactez {} ",               # Picard
    "li": "Zeet zoe good en nöm contak op mit {} ",   # Limburgish
    "frr": "Wees sü gödj an mååg kontakt ma {} ",     # North Frisian
    "gsw": "Bitte nimm Kontakt uf mit {} ",           # Alemannic
    "bar": "Bittschön, meld di bei {} ",              # Bavarian
    "sco": "Please get in touch wi {} ",              # Scots
    "kw": "Mar pleg, kestav gans {} ",                # Cornish
    "rup": "Vã rigãm, contactats {} ",                # Aromanian
    "rue": "Просиме, контактуйте {} ",                # Rusyn
    "szl": "Proszymy, skōntaktujcie sie z {} ",       # Silesian
    "kab": "Ttxil-k, nermes {} ",                     # Kabyle
    "ary": "عافاك تاصل ب {} ",                        # Moroccan Arabic
    "arz": "لو سمحت كلم {} ",                         # Egyptian Arabic
    "nan": "Chhiáⁿ liân-lo̍k {} ",                     # Hokkien (Pe̍h-ōe-jī)
    "hak": "Chhiáng lièn-lo̍k {} ",                    # Hakka (Pha̍k-fa-sṳ)
    "wuu": "请侬联系 {} ",                            # Shanghainese
    "za": "Cingj lienzhi {} ",                        # Zhuang
    "tet": "Favór kontaktu {} ",                      # Tetum
    "ty": "Ia ora na, a pāpa'i mai iā {} ",           # Tahitian
    "dz": "ཞུ་ཡིག་ {} ལུ་འབྲེལ་བ་འཐབ་ ",                 # Dzongkha
    "mni": "ꯑꯃꯨꯛ ꯍꯟꯅ {} ꯗ ꯄꯥꯎ ꯊꯥꯕꯤꯌꯨ ",                # Meitei (Meitei Mayek)
    "nqo": "ߊ߬ ߣߌ߫ ߞߊ߬ ߓߊ߬ߘߍ߲߬ {} ",                    # Manding (N'Ko)
    "ff": "𞤶𞤢𞤱𞤢𞤶𞤢𞤥 {} ",                            # Fula (Adlam)
    "cr": "ᓂᑕᑯᐦᑕᐣ {} ",                              # Cree (syllabics)
    "mfe": "Silvouple kontakte {} ",                  # Mauritian Creole
    "jam": "Beg yuh contact {} ",                     # Jamaican Patois
    "srn": "Grantangi, kontakti {} ",                 # Sranan Tongo
    "bem": "Napapata, ikatanyeni na {} ",             # Bemba
    "nso": "Hle ikgokaganye le {} ",                  # Northern Sotho
    "rn": "Turabasavye, muvugane na {} ",             # Kirundi
    "nv": "T'áá shǫǫdí {} bich'į' hólne' ",           # Navajo
    "arn": "Feley ta nütramkayaeymi {} ",             # Mapudungun
    "os": "Дӕ хорзӕхӕй, бадзур {} ",                  # Ossetian
    "ce": "Дехар до, хаам бе {} ",                    # Chechen
    "udm": "Тау, герӟаськы {} ",                      # Udmurt
}


def _prose(r, doc, value, cls, form_prefix, word):
    lang = r.choice(sorted(PROSE))
    lead, tail = PROSE[lang].split("{}")
    _put(doc, lead + word + " ", value, cls, "%s_%s" % (form_prefix, lang), tail + "\n")


# ------------------------------------------------------------ carriers
#
# Surroundings every class is written in: application logs of frameworks
# and runtimes no family wrote, test output, recorded HTTP, debugger
# prints, site generators and chat exports. Each takes a label and gives
# the text before and after the value.

def _carrier(r, label, quote_ok=True):
    form = r.choice(["klog", "spring", "dotnet", "rust_tracing", "oslog", "pytest", "jest_snapshot", "vcr",
                     "playwright", "gdb", "frontmatter", "latex", "rss", "slack_export"])
    if not quote_ok and form in ("pytest", "gdb", "vcr"):
        form = "klog"
    key = label.lower().replace(" ", "_").replace("-", "").replace(".", "")
    camel = "".join(w.title() if k else w for k, w in enumerate(key.split("_")))
    s = r.randint(0, 59)
    us = r.randint(0, 999999)
    lead, tail = {
        "klog": ("I1207 04:%02d:%02d.%06d       1 reconciler.go:%d] \"Updated customer\" field=\"%s\" value=\"" % (
            r.randint(0, 59), s, us, r.randint(80, 900), camel), "\"\n"),
        "spring": ("2026-12-07T04:%02d:%02d.%03dZ  INFO 1 --- [nio-8080-exec-%d] c.a.billing.web.CustomerController       : "
                   "updated %s=" % (r.randint(0, 59), s, us // 1000, r.randint(1, 9), camel), "\n"),
        "dotnet": ("info: Acme.Billing.CustomerService[%d]\n      Customer %d changed %s to " % (
            r.randint(1000, 1099), r.randint(1000, 99999), label), "\n"),
        "rust_tracing": ("2026-12-07T04:%02d:%02d.%06dZ  INFO request{method=POST uri=/v1/customers}: billing::customers: "
                         "updated %s=" % (r.randint(0, 59), s, us, key), "\n"),
        "oslog": ("2026-12-07 04:%02d:%02d.%06d+0000 0x%x     Default     0x0                  %d     0    Acme: [Profile] %s: " % (
            r.randint(0, 59), s, us, r.randint(0x10000, 0xfffff), r.randint(200, 9999), label), "\n"),
        "pytest": ("    def test_%s_is_masked(client):\n        resp = client.get(\"/me\")\n>       assert resp.json()[\"%s\"] == \"***\"\n"
                   "E       AssertionError: assert '" % (key, key), "' == '***'\n"),
        "jest_snapshot": ("exports[`Profile renders the %s 1`] = `\n<dd\n  className=\"value\"\n>\n  " % label, "\n</dd>\n`;\n\n"),
        "vcr": ("- request:\n    method: POST\n    uri: https://api.example.net/v2/customers\n    body:\n      string: '{\"%s\": \"" % key,
                "\"}'\n  response:\n    status:\n      code: 201\n"),
        "playwright": ("      \"localStorage\": [\n        {\n          \"name\": \"%s\",\n          \"value\": \"" % camel,
                       "\"\n        }\n      ]\n"),
        "gdb": ("(gdb) p *customer\n$%d = {id = %d, %s = \"" % (r.randint(1, 40), r.randint(1, 99999), key), "\", active = true}\n"),
        "frontmatter": ("---\ntitle: \"Contact\"\nlayout: page\n%s: \"" % key, "\"\n---\n"),
        "latex": ("\\newcommand{\\%s}{" % camel.replace("_", ""), "}\n"),
        "rss": ("<item>\n  <title>Ticket updated</title>\n  <description>New %s: " % label, "</description>\n</item>\n"),
        "slack_export": ("    {\n        \"type\": \"message\",\n        \"user\": \"U0%s\",\n        \"text\": \"my %s is " % (
            _s(r, UP + D, 8), label), "\",\n        \"ts\": \"17%s.%s\"\n    },\n" % (_d(r, 8), _d(r, 6))),
    }[form]
    return form, lead, tail


# ------------------------------------------------------------ items

def _email(r):
    local = r.choice(["kiri.tane", "mose", "billing-ops", "noa.kealoha", "farah_m", "bheki+ci", "lindiwe",
                      "tevita.f", "oyelaran", "ingrid.b", "ops-oncall", "ahanu", "q.nguyen", "marlene.h", "Tiva.Moana",
                      "dependabot-notify", "sre", "finance.ap", "yuki_s", "hal.9000"])
    dom = r.choice(["mbabane.example.sz", "maseru.example.ls", "kuwait.example.com.kw", "manama.example.bh",
                    "aden.example.ye", "hamilton.example.bm", "hagatna.example.net", "castries.example.lc",
                    "papeete.example.pf", "dili.example.tl", "bujumbura.example.bi", "blantyre.example.mw",
                    "ci.example.systems", "team.example.works", "Example.CLOUD", "eu-1.mail.example.dev"])
    return "%s@%s" % (local, dom)


def i_email(r, doc, m):
    form = r.choice(["coauthor", "reviewed_by", "pyproject", "helm_chart", "docker_label", "cargo_authors",
                     "certbot", "acme_sh", "nagios_contact", "airflow_args", "mobileconfig", "auth0_log",
                     "sentry_user", "segment_identify", "git_config_l", "bruno_body", "carrier", "carrier", "prose"])
    e = _email(r)
    if form == "prose":
        _prose(r, doc, e, "email", "prose", "e-mail")
        return
    if form == "carrier":
        f, lead, tail = _carrier(r, "e-mail")
        _put(doc, lead, e, "email", "carrier_" + f, tail)
        return
    name = r.choice(["Kiri Tane", "Noa Kealoha", "Lindiwe Dube", "Tevita Fifita", "Ingrid Berg"])
    lead, tail = {
        "coauthor": ("Fix rounding of invoice totals\n\nCo-authored-by: %s <" % name, ">\n"),
        "reviewed_by": ("Reviewed-by: %s <" % name, ">\nTested-by: CI\n"),
        "pyproject": ("[project]\nname = \"acme-billing\"\nauthors = [\n  {name = \"%s\", email = \"" % name, "\"},\n]\n"),
        "helm_chart": ("apiVersion: v2\nname: billing\nmaintainers:\n  - name: %s\n    email: " % name.split()[0].lower(), "\n"),
        "docker_label": ("LABEL org.opencontainers.image.authors=\"", "\"\n"),
        "cargo_authors": ("[package]\nname = \"acme-ledger\"\nauthors = [\"%s <" % name, ">\"]\n"),
        "certbot": ("certbot certonly --webroot -w /var/www/html -d shop.example.net --agree-tos -m ", " --non-interactive\n"),
        "acme_sh": ("acme.sh --register-account -m ", " --server letsencrypt\n"),
        "nagios_contact": ("define contact {\n    contact_name    oncall\n    email           ", "\n}\n"),
        "airflow_args": ("default_args = {\n    \"owner\": \"data-eng\",\n    \"email\": [\"", "\"],\n    \"email_on_failure\": True,\n}\n"),
        "mobileconfig": ("<key>EmailAddress</key>\n<string>", "</string>\n<key>IncomingMailServerHostName</key>\n"),
        "auth0_log": ("{\"type\":\"s\",\"description\":\"Successful login\",\"connection\":\"Username-Password-Authentication\",\"user_name\":\"",
                      "\",\"strategy\":\"auth0\"}\n"),
        "sentry_user": ("  \"user\": {\n    \"id\": \"%d\",\n    \"email\": \"" % r.randint(1, 999999), "\"\n  },\n"),
        "segment_identify": ("analytics.identify('%s', {\n  email: '" % _s(r, LOW + D, 12), "',\n  plan: 'team'\n});\n"),
        "git_config_l": ("core.editor=vim\nuser.name=%s\nuser.email=" % name, "\npull.rebase=true\n"),
        "bruno_body": ("body:json {\n  {\n    \"invitee\": \"", "\"\n  }\n}\n"),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    cc, mk = _phone(r)
    p = mk(r)
    form = r.choice(["sms_uri", "jsonld", "nagios_pager", "hass_notify", "mobileconfig", "auth0_mfa", "stripe_phone",
                     "segment_traits", "carrier", "carrier", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, p, "phone", "prose_" + cc, "tel.")
        return
    if form == "carrier":
        f, lead, tail = _carrier(r, "phone number")
        _put(doc, lead, p, "phone", "carrier_%s_%s" % (f, cc), tail)
        return
    if form == "sms_uri":
        # The number written twice: as shown and in the link.
        e164 = "+" + "".join(c for c in p if c.isdigit())
        _seq(doc, form + "_" + cc, ["<a href=\"sms:", (e164, "phone"), "?body=STOP\">", (p, "phone"), "</a>\n"])
        return
    lead, tail = {
        "jsonld": ("<script type=\"application/ld+json\">{\"@type\": \"LocalBusiness\", \"name\": \"Acme Kiosk\", \"telephone\": \"",
                   "\"}</script>\n"),
        "nagios_pager": ("define contact {\n    contact_name    oncall\n    pager           ", "\n}\n"),
        "hass_notify": ("  - service: notify.sms\n    data:\n      message: \"Door open\"\n      target: \"", "\"\n"),
        "mobileconfig": ("<key>PhoneNumber</key>\n<string>", "</string>\n"),
        "auth0_mfa": ("{\"type\":\"gd_send_sms\",\"description\":\"Guardian - SMS sent\",\"details\":{\"to\":\"", "\"}}\n"),
        "stripe_phone": ("      \"billing_details\": {\n        \"phone\": \"", "\",\n        \"postal_code\": null\n      },\n"),
        "segment_traits": ("analytics.identify('%s', { phone: '" % _s(r, LOW + D, 12), "' });\n"),
    }[form]
    _put(doc, lead, p, "phone", "%s_%s" % (form, cc), tail)


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["urla", "irs_mef", "w4", "credit_report", "background_json", "workday", "salesforce_soql",
                     "vcr_form", "carrier", "carrier", "carrier"])
    if form == "carrier":
        f, lead, tail = _carrier(r, r.choice(["SSN", "social security number", "SSN on file"]))
        _put(doc, lead, dashed, "us_ssn", "carrier_" + f, tail)
        return
    if form == "irs_mef":
        # IRS e-file XML writes the nine digits solid, in a tag that names them.
        tag = r.choice(["PrimarySSN", "SpouseSSN", "DependentSSN"])
        _put(doc, "<%s>" % tag, a + g + s, "us_ssn", form, "</%s>\n" % tag)
        return
    lead, v, tail = {
        "urla": ("Section 1a. Personal Information\nBorrower Name: Lindiwe Dube\nSocial Security Number  ", dashed,
                 "    Date of Birth (mm/dd/yyyy) 04/11/1986\n"),
        "w4": ("Step 1: (a) First name and middle initial   Last name          (b) Social security number\n"
               "           Tevita                       Fifita                 ", dashed, "\n"),
        "credit_report": ("CONSUMER IDENTIFICATION\n  NAME: KEALOHA, NOA\n  SSN: ", dashed, "   DOB: 1979\n"),
        "background_json": ("{\"candidate\": {\"first_name\": \"Ingrid\", \"ssn\": \"", dashed, "\", \"package\": \"driver_pro\"}}\n"),
        "workday": ("<wd:National_ID_Data>\n  <wd:ID>", dashed,
                    "</wd:ID>\n  <wd:ID_Type_Reference><wd:ID wd:type=\"National_ID_Type_Code\">USA-SSN</wd:ID></wd:ID_Type_Reference>\n"),
        "salesforce_soql": ("SELECT Id, Name, Social_Security_Number__c FROM Contact LIMIT 1\n003%s  Kiri Tane  " % _s(r, AN, 12),
                            dashed, "\n"),
        "vcr_form": ("    body:\n      string: applicant%5Bname%5D=Noa+Kealoha&applicant%5Bssn%5D=", dashed, "&applicant%5Bstate%5D=HI\n"),
    }[form]
    _put(doc, lead, v, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = _card(r, m)
    shown = _card_shown(r, c)
    form = r.choice(["stripe_form", "applepay_dpan", "cybersource", "moneris", "checkout_source", "jp_form",
                     "ocr_card", "adyen", "carrier", "carrier", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, shown, "credit_card", "prose_%s" % kind, "card")
        return
    if form == "carrier":
        f, lead, tail = _carrier(r, r.choice(["card number", "card", "PAN"]))
        _put(doc, lead, shown, "credit_card", "carrier_%s_%s" % (f, kind), tail)
        return
    if form == "adyen":
        # The encrypted fields next to it are ciphertext, look-alikes.
        doc.t("{\"paymentMethod\": {\"type\": \"scheme\", \"number\": \"")
        doc.item(c, "credit_card", "t_adyen_" + kind)
        doc.t("\", \"encryptedSecurityCode\": \"")
        doc.look("adyenjs_0_1_25$" + _s(r, B64, 172), "adyen_cse")
        doc.t("\"}}\n")
        return
    lead, v, tail = {
        "stripe_form": ("curl https://api.stripe.com/v1/tokens -d card%5Bnumber%5D=", c,
                        " -d card%5Bexp_month%5D=12 -d card%5Bexp_year%5D=2029\n"),
        "applepay_dpan": ("{\"applicationPrimaryAccountNumber\":\"", c,
                          "\",\"applicationExpirationDate\":\"291231\",\"currencyCode\":\"840\",\"transactionAmount\":%d}\n" % r.randint(100, 99999)),
        "cybersource": ("<card>\n  <accountNumber>", c, "</accountNumber>\n  <expirationMonth>12</expirationMonth>\n</card>\n"),
        "moneris": ("<purchase><order_id>ord-%d</order_id><amount>%d.00</amount><pan>" % (r.randint(1000, 9999), r.randint(1, 999)),
                    c, "</pan><expdate>2912</expdate></purchase>\n"),
        "checkout_source": ("  \"source\": {\n    \"type\": \"card\",\n    \"number\": \"", shown, "\",\n    \"expiry_month\": 12\n  },\n"),
        "jp_form": ("カード番号：", _group(c, "\u3000").translate(FULLWIDTH), "\n有効期限：１２／２９\n"),
        "ocr_card": ("-- OCR (card_front.jpg) --\n", shown, "\nVALID THRU 12/29\nNOA KEALOHA\n"),
    }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = _group(i)
    form = r.choice(["fatturapa", "bezahlcode", "berlin_group", "mollie", "wise", "datev_csv", "latex_invoice",
                     "mandate_text", "gocardless", "facturae", "carrier", "carrier", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, spaced, "iban", "prose", "IBAN")
        return
    if form == "carrier":
        f, lead, tail = _carrier(r, "IBAN")
        _put(doc, lead, r.choice([i, spaced]), "iban", "carrier_" + f, tail)
        return
    if form == "datev_csv":
        # DATEV's header of a Stammdaten export, then the row.
        doc.t("\"Konto\";\"Name\";\"IBAN\";\"BIC\"\n\"%d\";\"Dube Lindiwe\";\"" % r.randint(10000, 69999))
        doc.item(i, "iban", "t_datev_csv")
        doc.t("\";\"")
        doc.look(_s(r, UP, 4) + i[:2] + _s(r, UP + D, 2) + r.choice(["", "XXX"]), "bic")
        doc.t("\"\n")
        return
    lead, v, tail = {
        "fatturapa": ("<DettaglioPagamento>\n  <ModalitaPagamento>MP05</ModalitaPagamento>\n  <ImportoPagamento>%d.00</ImportoPagamento>\n  <IBAN>" % r.randint(10, 9999),
                      i, "</IBAN>\n</DettaglioPagamento>\n"),
        "bezahlcode": ("bank://singlepaymentsepa?name=DUBE%20LINDIWE&reason=Rechnung%20" + _d(r, 5) + "&iban=", i,
                       "&amount=%d,00\n" % r.randint(5, 900)),
        "berlin_group": ("{\"instructedAmount\": {\"currency\": \"EUR\", \"amount\": \"%d.00\"},\n \"debtorAccount\": {\"iban\": \"" % r.randint(1, 5000),
                         i, "\"}}\n"),
        "mollie": ("  \"details\": {\n    \"consumerName\": \"T. Fifita\",\n    \"consumerAccount\": \"", i, "\",\n    \"consumerBic\": null\n  },\n"),
        "wise": ("{\"currency\": \"EUR\", \"type\": \"iban\", \"accountHolderName\": \"Ingrid Berg\", \"details\": {\"iban\": \"", i, "\"}}\n"),
        "latex_invoice": ("\\newcommand{\\invoiceiban}{", spaced, "}\n"),
        "mandate_text": ("SEPA-Lastschriftmandat\nGläubiger: Acme GmbH\nKontoinhaber: Kiri Tane\nIBAN des Zahlungspflichtigen: ",
                         spaced, "\nOrt, Datum, Unterschrift\n"),
        "gocardless": ("{\"customer_bank_accounts\": {\"account_holder_name\": \"Noa Kealoha\", \"iban\": \"", i, "\"}}\n"),
        "facturae": ("<AccountToBeCredited>\n  <IBAN>", i, "</IBAN>\n</AccountToBeCredited>\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4(r)
    port = r.randint(1024, 65000)
    form = r.choice(["kubectl_pods", "kubectl_nodes", "docker_network", "aws_describe", "tf_plan", "ansible_ok",
                     "nagios_host", "mtr", "iperf3", "ssh_debug", "nc_verbose", "firewalld", "etcd_members",
                     "nomad_members", "nodetool", "es_cat_nodes", "redis_cluster", "mongo_rs", "kafka_api_versions",
                     "mysql_processlist", "pg_replication", "istio_endpoints", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv4", "prose", "IP")
        return
    pod = "billing-%s-%s" % (_s(r, "bcdfghjklmnpqrstvwxz2456789", 10), _s(r, "bcdfghjklmnpqrstvwxz2456789", 5))
    parts = {
        "kubectl_pods": ["NAME                             READY   STATUS    RESTARTS   AGE   IP            NODE\n%s   1/1     Running   0          3d4h  " % pod,
                         (ip, "ipv4"), "   ip-%s.ec2.internal\n" % ip2.replace(".", "-")],
        "kubectl_nodes": ["NAME     STATUS   ROLES           AGE   VERSION   INTERNAL-IP   EXTERNAL-IP\nnode-a   Ready    control-plane   41d   v1.31.2   ",
                          (ip, "ipv4"), "     ", (ip2, "ipv4"), "\n"],
        "docker_network": ["            \"Name\": \"billing-api-1\",\n            \"MacAddress\": \"02:42:%02x:%02x:%02x:%02x\",\n            \"IPv4Address\": \"" % (
            r.randint(0, 255), r.randint(0, 255), r.randint(0, 255), r.randint(0, 255)), (ip, "ipv4"), "/%d\",\n" % r.choice([16, 20, 24])],
        "aws_describe": ["                    \"PrivateIpAddress\": \"", (ip, "ipv4"), "\",\n                    \"PublicIpAddress\": \"",
                         (ip2, "ipv4"), "\",\n"],
        "tf_plan": ["  # aws_instance.bastion will be updated in-place\n  ~ resource \"aws_instance\" \"bastion\" {\n      + private_ip = \"",
                    (ip, "ipv4"), "\"\n    }\n"],
        "ansible_ok": ["TASK [ping] ********************************************************\nok: [", (ip, "ipv4"),
                       "] => {\"changed\": false, \"ping\": \"pong\"}\n"],
        "nagios_host": ["define host {\n    use        linux-server\n    host_name  db01\n    address    ", (ip, "ipv4"), "\n}\n"],
        "mtr": ["HOST: probe-1                     Loss%%   Snt   Last   Avg  Best  Wrst StDev\n  %d.|-- " % r.randint(2, 12),
                (ip, "ipv4"), "             0.0%%    10    %d.%d   %d.%d   %d.%d  %d.%d   0.%d\n" % tuple(r.randint(1, 9) for _ in range(9))],
        "iperf3": ["Connecting to host ", (ip, "ipv4"), ", port 5201\n[  5] local ", (ip2, "ipv4"),
                   " port %d connected to " % port, (ip, "ipv4"), " port 5201\n"],
        "ssh_debug": ["debug1: Connecting to db01 [", (ip, "ipv4"), "] port 22.\ndebug1: Connection established.\n"],
        "nc_verbose": ["Connection to ", (ip, "ipv4"), " 5432 port [tcp/postgresql] succeeded!\n"],
        "firewalld": ["firewall-cmd --permanent --add-rich-rule='rule family=\"ipv4\" source address=\"", (ip, "ipv4"),
                      "\" port port=\"5432\" protocol=\"tcp\" accept'\n"],
        "etcd_members": ["%s, started, etcd-0, https://" % _s(r, HEX, 16), (ip, "ipv4"), ":2380, https://", (ip, "ipv4"),
                         ":2379, false\n"],
        "nomad_members": ["Name              Address        Port  Status  Leader  Raft Version\nserver-1.global  ", (ip, "ipv4"),
                          "  4648  alive   true    3\n"],
        "nodetool": ["--  Address        Load        Tokens  Owns (effective)  Host ID                               Rack\nUN  ",
                     (ip, "ipv4"), "  %d.%d KiB  16      %d.%d%%             %s  rack1\n" % (
                         r.randint(100, 999), r.randint(0, 9), r.randint(10, 99), r.randint(0, 9), uuid.UUID(int=r.getrandbits(128), version=4))],
        "es_cat_nodes": ["ip            heap.percent ram.percent cpu load_1m node.role   master name\n", (ip, "ipv4"),
                         "           %d          %d   %d    0.%02d cdfhilmrstw *      es-node-1\n" % (r.randint(10, 90), r.randint(50, 99), r.randint(0, 30), r.randint(0, 99))],
        "redis_cluster": ["%s " % _s(r, HEX, 40), (ip, "ipv4"), ":6379@16379 myself,master - 0 17335%08d 1 connected 0-5460\n" % r.randint(0, 99999999)],
        "mongo_rs": ["\t\t{\n\t\t\t\"_id\" : 1,\n\t\t\t\"name\" : \"", (ip, "ipv4"), ":27017\",\n\t\t\t\"health\" : 1,\n\t\t\t\"stateStr\" : \"SECONDARY\",\n"],
        "kafka_api_versions": ["", (ip, "ipv4"), ":9092 (id: %d rack: null) -> (\n\tProduce(0): 0 to 11 [usable: 11],\n" % r.randint(0, 5)],
        "mysql_processlist": ["| %d | app  | " % r.randint(100, 99999), (ip, "ipv4"), ":%d | shop | Query   |    0 | init     | SHOW PROCESSLIST |\n" % port],
        "pg_replication": ["-[ RECORD 1 ]----+------------------------------\npid              | %d\nusename          | replicator\nclient_addr      | " % r.randint(100, 99999),
                           (ip, "ipv4"), "\nstate            | streaming\n"],
        "istio_endpoints": ["ENDPOINT             STATUS      OUTLIER CHECK     CLUSTER\n", (ip, "ipv4"),
                            ":8080     HEALTHY     OK                outbound|8080||billing.prod.svc.cluster.local\n"],
    }[form]
    _seq(doc, form, parts)


def i_ipv6(r, doc, m):
    ip, ip2 = _v6(r), _v6(r)
    form = r.choice(["ndp", "netsh_neighbors", "docker_network", "aws_describe", "tf_plan", "kubectl_describe",
                     "ssh_debug", "nc_verbose", "firewalld", "mongo_rs", "kafka_api_versions", "nodetool", "iperf3",
                     "es_cat_nodes", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv6", "prose", "IPv6")
        return
    mac = ":".join("%02x" % r.randint(0, 255) for _ in range(6))
    parts = {
        "ndp": ["Neighbor                             Linklayer Address  Netif Expire    S Flags\n", (ip, "ipv6"),
                "   %s  en0 23h59m58s S R\n" % mac],
        "netsh_neighbors": ["Internet Address                              Physical Address   Type\n", (ip, "ipv6"),
                            "       %s  Reachable\n" % mac.replace(":", "-")],
        "docker_network": ["            \"IPv6Address\": \"", (ip, "ipv6"), "/64\"\n"],
        "aws_describe": ["                    \"Ipv6Addresses\": [\n                        {\n                            \"Ipv6Address\": \"",
                         (ip, "ipv6"), "\"\n                        }\n                    ],\n"],
        "tf_plan": ["      + ipv6_addresses = [\n          + \"", (ip, "ipv6"), "\",\n        ]\n"],
        "kubectl_describe": ["IP:           ", (_v4(r), "ipv4"), "\nIPs:\n  IP:           ", (ip, "ipv6"), "\nControlled By:  ReplicaSet/billing\n"],
        "ssh_debug": ["debug1: Connecting to ", (ip, "ipv6"), " [", (ip, "ipv6"), "] port 22.\n"],
        "nc_verbose": ["Connection to ", (ip, "ipv6"), " 443 port [tcp/https] succeeded!\n"],
        "firewalld": ["firewall-cmd --permanent --add-rich-rule='rule family=\"ipv6\" source address=\"", (ip, "ipv6"),
                      "\" service name=\"ssh\" accept'\n"],
        "mongo_rs": ["\t\t\t\"name\" : \"[", (ip, "ipv6"), "]:27017\",\n"],
        "kafka_api_versions": ["[", (ip, "ipv6"), "]:9092 (id: %d rack: null) -> (\n" % r.randint(0, 5)],
        "nodetool": ["UN  ", (ip, "ipv6"), "  %d.%d KiB  16      %d.%d%%             %s  rack1\n" % (
            r.randint(100, 999), r.randint(0, 9), r.randint(10, 99), r.randint(0, 9), uuid.UUID(int=r.getrandbits(128), version=4))],
        "iperf3": ["Connecting to host ", (ip, "ipv6"), ", port 5201\n[  5] local ", (ip2, "ipv6"), " port %d connected to " % r.randint(1024, 65000),
                   (ip, "ipv6"), " port 5201\n"],
        "es_cat_nodes": ["", (ip, "ipv6"), "           %d          %d   %d    0.%02d dim         -      es-node-%d\n" % (
            r.randint(10, 90), r.randint(50, 99), r.randint(0, 30), r.randint(0, 99), r.randint(2, 9))],
    }[form]
    _seq(doc, form, parts)


def _provider(r):
    """A provider token no family wrote, in its own shape and its own
    place: (name, lead, token, tail)."""
    u = lambda: str(uuid.UUID(int=r.getrandbits(128), version=4))
    name = r.choice(["anthropic_admin", "openai_svcacct", "sonarqube", "gitlab_deploy", "gitlab_trigger", "gitlab_cbt",
                     "github_refresh", "alibaba", "tencent", "scaleway", "exoscale", "backblaze", "braintree", "razorpay",
                     "woocommerce", "brevo", "hubspot", "intercom", "slack_rotating", "airtable", "asana", "clickup",
                     "typeform", "pushbullet", "twitch_irc", "discord_bot", "honeybadger", "launchdarkly", "harness",
                     "supabase", "jina", "firecrawl", "e2b", "browserbase", "brave", "wandb", "anyscale", "posthog",
                     "modal", "codecov", "snyk", "vercel", "cf_tunnel", "splunk_hec", "fauna", "xata", "appwrite",
                     "portainer", "rancher"])
    if name == "discord_bot":
        uid = str(r.randint(10 ** 17, 10 ** 18 * 2))
        tok = base64.b64encode(uid.encode()).decode().rstrip("=") + "." + _s(r, B64URL, 6) + "." + _s(r, B64URL, 38)
        return name, "client = discord.Client(intents=intents)\nclient.run(\"", tok, "\")\n"
    if name == "intercom":
        tok = base64.b64encode(("tok:" + u().replace("-", "_") + ":1:0").encode()).decode()
        return name, "curl https://api.intercom.io/contacts -H 'Authorization: Bearer ", tok, "' -H 'Intercom-Version: 2.11'\n"
    pairs = {
        # A key id and its secret, both of which the tuning split's AWS
        # pair makes items (the id is a key id as AKIA... is).
        "github_refresh": ["{\"access_token\":\"", ("ghu_" + _s(r, AN, 36), "api_key"), "\",\"expires_in\":28800,\"refresh_token\":\"",
                           ("ghr_" + _s(r, AN, 76), "api_key"), "\",\"refresh_token_expires_in\":15897600}\n"],
        "alibaba": ["[default]\naccess_key_id = ", ("LTAI" + _s(r, AN, 20), "api_key"), "\naccess_key_secret = ", (_s(r, AN, 30), "api_key"),
                    "\nregion_id = cn-hangzhou\n"],
        "tencent": ["export TENCENTCLOUD_SECRET_ID=", ("AKID" + _s(r, AN, 32), "api_key"), "\nexport TENCENTCLOUD_SECRET_KEY=",
                    (_s(r, AN, 32), "api_key"), "\n"],
        "scaleway": ["access_key: ", ("SCW" + _s(r, UP + D, 17), "api_key"), "\nsecret_key: ", (u(), "api_key"), "\n"],
        "exoscale": ["[[accounts]]\n  name = \"prod\"\n  key = \"", ("EXO" + _s(r, HEX, 24), "api_key"), "\"\n  secret = \"",
                     (_s(r, B64URL, 43), "api_key"), "\"\n"],
        "woocommerce": ["const api = new WooCommerceRestApi({ url: \"https://shop.example.net\", consumerKey: \"", ("ck_" + _s(r, HEX, 40), "api_key"),
                        "\", consumerSecret: \"", ("cs_" + _s(r, HEX, 40), "api_key"), "\", version: \"wc/v3\" });\n"],
    }
    if name in pairs:
        return name, pairs[name], None, None
    if name == "cf_tunnel":
        raw = json.dumps({"a": _s(r, HEX, 32), "t": u(), "s": base64.b64encode(bytes(r.getrandbits(8) for _ in range(32))).decode()},
                         separators=(",", ":"))
        return name, "cloudflared tunnel run --token ", base64.b64encode(raw.encode()).decode(), "\n"
    lead, tok, tail = {
        "anthropic_admin": ("ANTHROPIC_ADMIN_KEY=", "sk-ant-admin01-" + _s(r, AN + "_-", 93) + "AA", "\n"),
        "openai_svcacct": ("  OPENAI_API_KEY: ", "sk-svcacct-" + _s(r, AN + "_-", 58) + "T3BlbkFJ" + _s(r, AN + "_-", 58), "\n"),
        "sonarqube": ("mvn sonar:sonar -Dsonar.host.url=https://sonar.example.net -Dsonar.token=",
                      r.choice(["squ_", "sqp_", "sqa_"]) + _s(r, HEX, 40), "\n"),
        "gitlab_deploy": ("helm registry login registry.example.net --username gitlab+deploy-token-%d --password " % r.randint(1, 999),
                          "gldt-" + _s(r, AN + "_-", 20), "\n"),
        "gitlab_trigger": ("curl -X POST --fail -F token=", "glptt-" + _s(r, HEX, 40),
                           " -F ref=main https://gitlab.example.net/api/v4/projects/%d/trigger/pipeline\n" % r.randint(1, 9999)),
        "gitlab_cbt": ("    JOB_TOKEN: ", "glcbt-" + _s(r, HEX, 2) + "_" + _s(r, AN + "_-", 20), "\n"),
        "backblaze": ("B2_APPLICATION_KEY=", "K00" + _s(r, AN, 28), "\n"),
        "braintree": ("BT_ACCESS_TOKEN=", "access_token$production$%s$%s" % (_s(r, LOW + D, 16), _s(r, HEX, 32)), "\n"),
        "razorpay": ("RAZORPAY_KEY_SECRET=", _s(r, AN, 24), "\n"),
        "brevo": ("  -H 'api-key: ", "xkeysib-" + _s(r, HEX, 64) + "-" + _s(r, AN, 16), "' \\\n"),
        "hubspot": ("HUBSPOT_ACCESS_TOKEN=", "pat-" + r.choice(["na1", "eu1"]) + "-" + u(), "\n"),
        "slack_rotating": ("{\"ok\":true,\"token\":\"", "xoxe.xoxp-1-" + _s(r, AN + "-", 146), "\",\"exp\":43200}\n"),
        "airtable": ("const base = new Airtable({ apiKey: '", "pat" + _s(r, AN, 14) + "." + _s(r, HEX, 64), "' }).base('app%s');\n" % _s(r, AN, 14)),
        "asana": ("client = asana.Client.access_token('", "2/%d/%d:%s" % (r.randint(10 ** 15, 10 ** 16 - 1), r.randint(10 ** 15, 10 ** 16 - 1), _s(r, HEX, 32)), "')\n"),
        "clickup": ("  -H \"Authorization: ", "pk_%d_%s" % (r.randint(10 ** 7, 10 ** 8 - 1), _s(r, UP + D, 32)), "\" \\\n"),
        "typeform": ("TYPEFORM_TOKEN=", "tfp_" + _s(r, AN, 44) + "_" + _s(r, AN, 14), "\n"),
        "pushbullet": ("curl -u ", "o." + _s(r, AN, 32), ": https://api.pushbullet.com/v2/pushes\n"),
        "twitch_irc": ("< CAP REQ :twitch.tv/tags\n< PASS ", "oauth:" + _s(r, LOW + D, 30), "\n< NICK kiosk_bot\n"),
        "honeybadger": ("  config.api_key = '", "hbp_" + _s(r, AN, 36), "'\n"),
        "launchdarkly": ("LAUNCHDARKLY_SDK_KEY=", "sdk-" + u(), "\n"),
        "harness": ("  -H 'x-api-key: ", "pat.%s.%s.%s" % (_s(r, AN + "_-", 22), _s(r, HEX, 24), _s(r, AN, 20)), "' \\\n"),
        "supabase": ("SUPABASE_SECRET_KEY=", "sb_secret_" + _s(r, AN + "_-", 31), "\n"),
        "jina": ("  -H \"Authorization: Bearer ", "jina_" + _s(r, HEX, 32) + _s(r, AN, 28), "\" \\\n"),
        "firecrawl": ("app = FirecrawlApp(api_key=\"", "fc-" + _s(r, HEX, 32), "\")\n"),
        "e2b": ("E2B_API_KEY=", "e2b_" + _s(r, HEX, 40), "\n"),
        "browserbase": ("BROWSERBASE_API_KEY=", "bb_live_" + _s(r, AN + "_-", 27), "\n"),
        "brave": ("  -H \"X-Subscription-Token: ", "BSA" + _s(r, AN, 28), "\"\n"),
        "wandb": ("machine api.wandb.ai\n  login user\n  password ", _s(r, HEX, 40), "\n"),
        "anyscale": ("ANYSCALE_CLI_TOKEN=", "esecret_" + _s(r, LOW + D, 26), "\n"),
        "posthog": ("POSTHOG_PERSONAL_API_KEY=", "phx_" + _s(r, AN, 47), "\n"),
        "modal": ("MODAL_TOKEN_SECRET=", "as-" + _s(r, AN, 22), "\n"),
        "codecov": ("      - uses: codecov/codecov-action@v5\n        with:\n          token: ", u(), "\n"),
        "snyk": ("snyk auth ", u(), "\n"),
        "vercel": ("vercel deploy --prod --token ", _s(r, AN, 24), "\n"),
        "splunk_hec": ("curl -k https://hec.example.net:8088/services/collector -H \"Authorization: Splunk ", u(),
                       "\" -d '{\"event\": \"deploy\"}'\n"),
        "fauna": ("FAUNA_SECRET=", "fnA" + _s(r, AN + "_-", 37), "\n"),
        "xata": ("XATA_API_KEY=", "xau_" + _s(r, AN, 32), "\n"),
        "appwrite": ("  .setKey('", "standard_" + _s(r, HEX, 256), "');\n"),
        "portainer": ("curl -H \"X-API-Key: ", "ptr_" + _s(r, B64, 43), "\" https://portainer.example.net/api/endpoints\n"),
        "rancher": ("export CATTLE_TOKEN=", "token-%s:%s" % (_s(r, LOW + D, 5), _s(r, LOW + D, 54)), "\n"),
    }[name]
    return name, lead, tok, tail


def i_api_key(r, doc, m):
    t = _tok(r, r.randint(24, 40))
    pw = _pw(r)
    form = r.choice([
        "vcr_header", "bruno", "hurl", "httpie", "artillery", "jmeter", "cypress_env", "playwright_cookie",
        "snowsql", "oci_config", "wrangler", "vercel_json", "fly_toml", "gae_app_yaml", "serverless", "samconfig",
        "buildspec", "cloudbuild", "drone", "bitbucket_pipelines", "travis", "taskfile", "tiltfile", "skaffold",
        "argocd_login", "concourse", "esphome_wifi", "esphome_api", "hass_secrets", "arduino_wifi", "openwrt_wireless",
        "edgeos", "airflow_var", "kubeadm_join", "swarm_join", "k3s",
        "provider", "provider", "provider", "provider", "provider", "provider", "prose"])
    if form == "prose":
        _prose(r, doc, pw, "api_key", "prose", "password")
        return
    if form == "provider":
        name, lead, tok, tail = _provider(r)
        if tok is None:
            _seq(doc, "provider_" + name, lead)
        else:
            _put(doc, lead, tok, "api_key", "provider_" + name, tail)
        return
    if form == "kubeadm_join":
        # The CA hash after it is a certificate's digest, a look-alike.
        tok = "%s.%s" % (_s(r, LOW + D, 6), _s(r, LOW + D, 16))
        _seq(doc, form, ["kubeadm join ", (_v4(r), "ipv4"), ":6443 --token ", (tok, "api_key"), " \\\n\t--discovery-token-ca-cert-hash sha256:"])
        doc.look(_s(r, HEX, 64), "kubeadm_ca_hash")
        doc.t("\n")
        return
    if form == "swarm_join":
        tok = "SWMTKN-1-%s-%s" % (_s(r, LOW + D, 50), _s(r, LOW + D, 25))
        _seq(doc, form, ["    docker swarm join --token ", (tok, "api_key"), " ", (_v4(r), "ipv4"), ":2377\n"])
        return
    if form == "k3s":
        tok = "K10%s::server:%s" % (_s(r, HEX, 64), _s(r, HEX, 32))
        _seq(doc, form, ["curl -sfL https://get.k3s.io | K3S_URL=https://", (_v4(r), "ipv4"), ":6443 K3S_TOKEN=", (tok, "api_key"), " sh -\n"])
        return
    if form == "oci_config":
        doc.t("[DEFAULT]\nuser=")
        doc.look("ocid1.user.oc1..aaaaaaaa" + _s(r, "abcdefghijklmnopqrstuvwxyz234567", 52), "oci_ocid")
        doc.t("\nfingerprint=")
        doc.look(":".join(_s(r, HEX, 2) for _ in range(16)), "oci_fingerprint")
        doc.t("\nkey_file=~/.oci/oci_api_key.pem\npass_phrase=")
        doc.item(pw, "api_key", "t_oci_config")
        doc.t("\nregion=eu-frankfurt-1\n")
        return
    if form == "travis":
        # The `secure:` string beside it is ciphertext, a look-alike.
        doc.t("env:\n  global:\n    - DEPLOY_USER=ci\n    - DEPLOY_PASSWORD=")
        doc.item(pw, "api_key", "t_travis")
        doc.t("\n    - secure: \"")
        doc.look(_s(r, B64, 340) + "==", "travis_secure")
        doc.t("\"\n")
        return
    lead, v, tail = {
        "vcr_header": ("  request:\n    headers:\n      Authorization:\n      - Bearer ", t, "\n      User-Agent:\n      - Faraday v2.9.0\n"),
        "bruno": ("meta {\n  name: list invoices\n  type: http\n}\n\nheaders {\n  Authorization: Bearer ", t, "\n}\n"),
        "hurl": ("GET https://api.example.net/v1/invoices\nAuthorization: Bearer ", t, "\nHTTP 200\n"),
        "httpie": ("http GET https://api.example.net/v1/invoices 'X-Api-Key:", t, "'\n"),
        "artillery": ("config:\n  target: https://api.example.net\n  defaults:\n    headers:\n      x-api-key: \"", t, "\"\n"),
        "jmeter": ("<elementProp name=\"\" elementType=\"Header\">\n  <stringProp name=\"Header.name\">Authorization</stringProp>\n"
                   "  <stringProp name=\"Header.value\">Bearer ", t, "</stringProp>\n</elementProp>\n"),
        "cypress_env": ("{\n  \"ADMIN_USER\": \"qa-admin\",\n  \"ADMIN_PASSWORD\": \"", pw, "\"\n}\n"),
        "playwright_cookie": ("  \"cookies\": [\n    {\n      \"name\": \"session_token\",\n      \"value\": \"", t,
                              "\",\n      \"domain\": \"app.example.net\",\n      \"httpOnly\": true\n    }\n  ],\n"),
        "snowsql": ("[connections.prod]\naccountname = acme-eu1\nusername = LOADER\npassword = ", pw, "\n"),
        "wrangler": ("[vars]\nENVIRONMENT = \"production\"\nUPSTREAM_TOKEN = \"", t, "\"\n"),
        "vercel_json": ("{\n  \"env\": {\n    \"CMS_PREVIEW_SECRET\": \"", t, "\"\n  }\n}\n"),
        "fly_toml": ("[env]\n  PRIMARY_REGION = \"ams\"\n  SMTP_PASSWORD = \"", pw, "\"\n"),
        "gae_app_yaml": ("runtime: python312\nenv_variables:\n  DB_PASSWORD: '", pw, "'\n"),
        "serverless": ("provider:\n  name: aws\n  environment:\n    PARTNER_API_KEY: ", t, "\n"),
        "samconfig": ("[default.deploy.parameters]\nstack_name = \"billing\"\nparameter_overrides = \"Stage=prod DbPassword=", pw, "\"\n"),
        "buildspec": ("version: 0.2\nenv:\n  variables:\n    NEXUS_PASSWORD: \"", pw, "\"\nphases:\n  build:\n    commands:\n      - mvn deploy\n"),
        "cloudbuild": ("substitutions:\n  _SLACK_TOKEN: '", t, "'\n"),
        "drone": ("- name: publish\n  image: plugins/docker\n  settings:\n    username: ci\n    password: ", pw, "\n"),
        "bitbucket_pipelines": ("          - pipe: atlassian/ftp-deploy:0.7.1\n            variables:\n              USER: deploy\n              PASSWORD: '",
                                pw, "'\n"),
        "taskfile": ("version: '3'\nenv:\n  REGISTRY_PASSWORD: ", pw, "\ntasks:\n  push:\n    cmds:\n      - docker push\n"),
        "tiltfile": ("local_resource('seed', cmd='./seed.sh', env={'SEED_API_TOKEN': '", t, "'})\n"),
        "skaffold": ("    helm:\n      releases:\n        - name: billing\n          setValues:\n            auth.apiKey: ", t, "\n"),
        "argocd_login": ("argocd login cd.example.net --username admin --password ", pw, " --grpc-web\n"),
        "concourse": ("fly -t ci set-pipeline -p billing -c pipeline.yml -v github_token=", t, "\n"),
        "esphome_wifi": ("wifi:\n  ssid: \"Kiosk-IoT\"\n  password: \"", pw, "\"\n"),
        "esphome_api": ("api:\n  encryption:\n    key: \"", base64.b64encode(bytes(r.getrandbits(8) for _ in range(32))).decode(), "\"\n"),
        "hass_secrets": ("# secrets.yaml\nmqtt_password: ", pw, "\n"),
        "arduino_wifi": ("const char* ssid = \"Kiosk-IoT\";\nconst char* password = \"", pw, "\";\n\nvoid setup() {\n  WiFi.begin(ssid, password);\n"),
        "openwrt_wireless": ("config wifi-iface 'default_radio0'\n\toption ssid 'Kiosk'\n\toption encryption 'psk2'\n\toption key '", pw, "'\n"),
        "edgeos": ("set service dns dynamic interface eth0 service custom-ddns login kiosk\nset service dns dynamic interface eth0 service custom-ddns password ",
                   pw, "\n"),
        "airflow_var": ("airflow variables set slack_webhook_token ", t, "\n"),
    }[form]
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    j = _jwt(r)
    form = r.choice(["client_assertion", "logout_token", "apns_h2", "sa_create_token", "vcr_header", "bruno", "hurl",
                     "httpie", "playwright_storage", "jest_snapshot", "gdb", "slack_export", "spring_log", "prose"])
    if form == "prose":
        _prose(r, doc, j, "jwt", "prose", "token")
        return
    lead, tail = {
        "client_assertion": ("grant_type=client_credentials&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=",
                             "&scope=billing.read\n"),
        "logout_token": ("POST /backchannel_logout HTTP/1.1\nHost: app.example.net\nContent-Type: application/x-www-form-urlencoded\n\nlogout_token=", "\n"),
        "apns_h2": (":method: POST\n:path: /3/device/%s\nauthorization: bearer " % _s(r, HEX, 64), "\napns-topic: net.example.kiosk\n"),
        "sa_create_token": ("$ kubectl -n ci create token deployer --duration=1h\n", "\n"),
        "vcr_header": ("    headers:\n      Authorization:\n      - Bearer ", "\n"),
        "bruno": ("auth:bearer {\n  token: ", "\n}\n"),
        "hurl": ("POST https://api.example.net/v1/refunds\nAuthorization: Bearer ", "\n[Options]\nretry: 2\n"),
        "httpie": ("http POST :8080/v1/refunds 'Authorization:Bearer ", "' amount:=1200\n"),
        "playwright_storage": ("        {\n          \"name\": \"oidc.user:https://login.example.net:billing\",\n          \"value\": \"{\\\"id_token\\\":\\\"",
                               "\\\",\\\"token_type\\\":\\\"Bearer\\\"}\"\n        }\n"),
        "jest_snapshot": ("exports[`auth header 1`] = `\"Bearer ", "\"`;\n"),
        "gdb": ("(gdb) p req->bearer\n$%d = \"" % r.randint(1, 40), "\"\n"),
        "slack_export": ("        \"text\": \"here is the token from staging: ", "\",\n"),
        "spring_log": ("2026-12-07T04:%02d:%02d.%03dZ DEBUG 1 --- [nio-8080-exec-2] o.s.s.o.s.r.a.JwtAuthenticationProvider  : Authenticating token " % (
            r.randint(0, 59), r.randint(0, 59), r.randint(0, 999)), "\n"),
    }[form]
    _put(doc, lead, j, "jwt", form, tail)


def i_private_key(r, doc, m):
    kind = r.choice(["", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED ", "TSS2 ", "SSH2"])
    lines = _pem_lines(r, kind)
    label = "ssh2" if kind == "SSH2" else (kind.strip().lower() or "pkcs8")
    form = r.choice(["form_urlencoded", "vault_pki", "slack_export", "jest_snapshot", "gdb", "latex_listing",
                     "vcr_json", "rss_cdata", "frontmatter", "tilt_secret", "prose"])
    if form == "form_urlencoded":
        # A key posted in a form body, as an access log or a recording keeps it.
        v = "".join("%%%02X" % ord(c) if not (c.isalnum() or c in "-_.") else c for c in "\n".join(lines)).replace("%20", "+")
        lead, tail = "POST /admin/tls/upload body=host=mx1.example.net&key=", "&submit=Save\n"
    elif form == "vault_pki":
        v = "\n".join(lines)
        lead = "Key                 Value\n---                 -----\nissuing_ca          -----BEGIN CERTIFICATE-----\n%s\n-----END CERTIFICATE-----\nprivate_key         " % (
            "\n".join(_s(r, B64, 64) for _ in range(3)))
        tail = "\nprivate_key_type    %s\nserial_number       %s\n" % (r.choice(["rsa", "ec"]), ":".join(_s(r, HEX, 2) for _ in range(20)))
    elif form == "slack_export":
        v = "\\n".join(lines)
        lead, tail = "        \"text\": \"this is what I used:\\n```\\n", "\\n```\",\n"
    elif form == "jest_snapshot":
        v = "\n".join(lines)
        lead, tail = "exports[`renders the generated key 1`] = `\n\"", "\"\n`;\n"
    elif form == "gdb":
        v = "\\n".join(lines)
        lead, tail = "(gdb) p cfg.tls_key\n$%d = \"" % r.randint(1, 40), "\\n\"\n"
    elif form == "latex_listing":
        v = "\n".join(lines)
        lead, tail = "\\begin{lstlisting}[caption={Server key}]\n", "\n\\end{lstlisting}\n"
    elif form == "vcr_json":
        v = "\\n".join(lines)
        lead, tail = "    body:\n      encoding: UTF-8\n      string: '{\"name\":\"edge\",\"private_key\":\"", "\\n\"}'\n"
    elif form == "rss_cdata":
        v = "\n".join(lines)
        lead, tail = "<item>\n  <title>Incident notes</title>\n  <description><![CDATA[<pre>", "</pre>]]></description>\n</item>\n"
    elif form == "frontmatter":
        v = "\n  ".join(lines)
        lead, tail = "---\ntitle: \"Lab setup\"\nlab_key: |\n  ", "\n---\n"
    elif form == "tilt_secret":
        v = "\n".join(lines)
        lead, tail = "k8s_yaml(secret_from_dict('edge-tls', inputs={'tls.key': '''", "'''}))\n"
    else:
        lang = r.choice(sorted(PROSE))
        p_lead, p_tail = PROSE[lang].split("{}")
        lead, v, tail = p_lead + "key:\n", "\n".join(lines), "\n" + p_tail + "\n"
        form = "prose_" + lang
    _put(doc, lead, v, "private_key", "%s_%s" % (form, label), tail)


def i_url(r, doc, m):
    pw = _url_pw(r)
    form = r.choice(["databricks", "pyamqp", "sentinel", "stomp", "cloudinary", "ftpes", "fish", "druid", "kylin",
                     "oracledb", "pymssql", "b2", "cvs_pserver", "redshift", "vertica", "teradata", "crate", "mariadb",
                     "asyncpg", "asyncmy", "elasticsearch", "celery_db", "sqs", "prose"])
    if form == "databricks":
        pw = "dapi" + _s(r, HEX, 32)
    if form == "b2":
        pw = "K00" + _s(r, AN, 28)
    if form == "prose":
        lang = r.choice(sorted(PROSE))
        lead, tail = PROSE[lang].split("{}")
        _put(doc, lead + "ftpes://kiri:", pw, "url_credentials", "prose_" + lang, "@files.example.net:21/ " + tail + "\n")
        return
    if form == "sqs":
        # Kombu's SQS broker URL: the key id is the user, the secret (its
        # slash and plus encoded) the password.
        secret = _s(r, AN, 30) + "%2F" + _s(r, AN, 4) + "%2B" + _s(r, AN, 4)
        _seq(doc, form, ["CELERY_BROKER_URL=sqs://", ("AKIA" + _s(r, UP + "234567", 16), "api_key"), ":",
                         (secret, "url_credentials"), "@\n"])
        return
    if form == "sentinel":
        # Two sentinels, the same password in each URL.
        _seq(doc, form, ["CELERY_BROKER_URL=sentinel://:", (pw, "url_credentials"), "@sentinel-0.example.net:26379;sentinel://:",
                         (pw, "url_credentials"), "@sentinel-1.example.net:26379\n"])
        return
    if form == "cloudinary":
        key = str(r.randint(10 ** 14, 10 ** 15 - 1))
        while m.luhn_ok(key):
            key = str(r.randint(10 ** 14, 10 ** 15 - 1))
        pw = _s(r, AN + "_-", 27)
        lead, tail = "CLOUDINARY_URL=cloudinary://%s:" % key, "@kiosk-media\n"
    else:
        lead, tail = {
            "databricks": ("sqlalchemy.create_engine(\"databricks://token:", "@adb-%s.%d.azuredatabricks.net?http_path=/sql/1.0/warehouses/%s\")\n" % (
                _no_card(r, m, lambda: "%d" % r.randint(10 ** 15, 10 ** 16 - 1)), r.randint(1, 19), _s(r, HEX, 16))),
            "pyamqp": ("broker_url = 'pyamqp://celery:", "@rabbit.example.net:5672//'\n"),
            "stomp": ("activemq.broker-url=stomp://admin:", "@mq.example.net:61613\n"),
            "ftpes": ("lftp ftpes://upload:", "@ftp.example.net\n"),
            "fish": ("dolphin fish://root:", "@nas.example.net/srv/share\n"),
            "druid": ("SQLALCHEMY_DATABASE_URI = 'druid://analyst:", "@druid-broker.example.net:8082/druid/v2/sql/'\n"),
            "kylin": ("kylin://ADMIN:", "@kylin.example.net:7070/learn_kylin\n"),
            "oracledb": ("engine = create_engine(\"oracle+oracledb://scott:", "@db01.example.net:1521/?service_name=FREEPDB1\")\n"),
            "pymssql": ("DB_URL=mssql+pymssql://sa:", "@sql02.example.net:1433/erp\n"),
            "b2": ("duplicity /srv b2://%s:" % ("00" + _s(r, HEX, 23)), "@backups-kiosk/srv\n"),
            "cvs_pserver": ("export CVSROOT=:pserver:builder:", "@cvs.example.net:/cvsroot\n"),
            "redshift": ("  conn_uri: redshift+psycopg2://etl:", "@dw.abc123xyz.eu-west-1.redshift.amazonaws.com:5439/dev\n"),
            "vertica": ("vertica+vertica_python://dbadmin:", "@vertica.example.net:5433/analytics\n"),
            "teradata": ("teradatasql://dbc:", "@td.example.net/?logmech=TD2\n"),
            "crate": ("crate://crate:", "@crate.example.net:4200\n"),
            "mariadb": ("DATABASE_URL=mariadb://shop:", "@mariadb.example.net:3306/shop\n"),
            "asyncpg": ("SQLALCHEMY_URL = \"postgresql+asyncpg://api:", "@pg.example.net:5432/api\"\n"),
            "asyncmy": ("url = \"mysql+asyncmy://api:", "@my.example.net:3306/api?charset=utf8mb4\"\n"),
            "elasticsearch": ("ES_URL=elasticsearch+https://elastic:", "@es.example.net:9243/\n"),
            "celery_db": ("result_backend = 'db+postgresql://celery:", "@pg.example.net/celery_results'\n"),
        }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

CARD_LIKE = "1234569"


def _digit_runs(s):
    run = ""
    for c in s + " ":
        if c.isdigit():
            run += c
        else:
            if run:
                yield run
            run = ""


def _cardish(m, s):
    """Whether `s` holds a run of 12 to 19 digits (solid, or in groups
    split by one space or dash) that passes Luhn: what a card detector
    could take for a number."""
    runs = list(_digit_runs(s))
    joined = []
    flat = ""
    for k, c in enumerate(s + "x"):
        if c.isdigit():
            flat += c
        elif c in " -\u2009" and flat and k + 1 < len(s) and s[k + 1].isdigit():
            continue
        else:
            if flat:
                joined.append(flat)
            flat = ""
    return any(12 <= len(d) <= 19 and d[0] in CARD_LIKE and m.luhn_ok(d) for d in runs + joined)


def _no_card(r, m, make):
    """A digit-bearing look-alike drawn again until no run in it passes as
    a card number."""
    while True:
        s = make()
        if not _cardish(m, s):
            return s


def _bcrypt(r):
    return "$2%s$%02d$%s" % (r.choice("aby"), r.choice([10, 11, 12, 13]), _s(r, AN + "./", 53))


def _gs1(body):
    """A GS1 check digit (weights 3 and 1 from the right), as GTINs and GLNs have."""
    total = sum(int(c) * (3 if k % 2 == 0 else 1) for k, c in enumerate(reversed(body)))
    return body + str((10 - total % 10) % 10)


def _geohash(r, n):
    return _s(r, "0123456789bcdefghjkmnpqrstuvwxyz", n)


def i_look(r, doc, m):
    q = r.randint
    hexid = lambda n: _s(r, HEX, n)
    u = lambda: str(uuid.UUID(int=r.getrandbits(128), version=4))
    kind = r.choice([
        "sops_enc", "sealed_secret", "vault_transit", "kms_blob", "bcrypt_hash", "shadow_sha512", "argon2_hash",
        "django_pbkdf2", "pg_scram", "mysql_native", "werkzeug_hash", "ssh2_public", "pkcs7", "jwks_public",
        "dkim_txt", "dnskey", "minisign_pub", "hpkp_pin", "rsa_public_pem", "trusted_cert",
        "aws_aroa", "aws_aida", "oci_ocid", "gcp_sa_uid", "alibaba_arn", "posthog_phc", "recaptcha_sitekey",
        "turnstile_sitekey", "mapbox_pk", "adsense_pub", "gads_customer_id", "fb_pixel", "detached_jws",
        "ksuid", "nanoid", "cuid", "xid", "firebase_push_id", "youtube_id", "spotify_uri", "slack_ids",
        "ja3", "ja4", "jarm", "ssdeep", "tlsh", "magnet_btih", "git_lfs_pointer",
        "isni", "isan", "imsi", "imeisv", "gln", "nsn", "bag_tag", "loinc", "ensembl", "go_term", "pmid",
        "geohash", "swiss_lv95", "utm", "dms_coord", "map_tile",
        "npwp", "cl_rut", "ar_cuit", "be_kbo", "ch_uid", "sg_uen", "cn_uscc", "jp_corporate", "ph_tin",
        "hu_adoszam", "fcc_frn", "sam_uei", "ca_bn", "inr_lakh", "chf_amount", "fr_amount", "se_bankgiro",
        "cz_symbols", "dk_fik", "brew_formula", "git_reflog", "bazel_label", "iban_template", "deb_version",
        "android_build", "kernel_release", "excel_serial", "julian_date", "zigbee_ieee", "bible_ref",
        "aspect_ratio"])
    if kind in ("ssh2_public", "pkcs7", "rsa_public_pem", "trusted_cert"):
        body = "\n".join(_s(r, B64, 64 if kind != "ssh2_public" else 70) for _ in range(q(2, 6))) + "\n" + _s(r, B64, q(8, 40)) + "="
        if kind == "ssh2_public":
            v = "---- BEGIN SSH2 PUBLIC KEY ----\nComment: \"%d-bit RSA, converted by ops@bastion from OpenSSH\"\n%s\n---- END SSH2 PUBLIC KEY ----" % (
                r.choice([2048, 4096]), body)
        else:
            label = {"pkcs7": "PKCS7", "rsa_public_pem": "RSA PUBLIC KEY", "trusted_cert": "TRUSTED CERTIFICATE"}[kind]
            v = "-----BEGIN %s-----\n%s\n-----END %s-----" % (label, body, label)
        doc.t(r.choice(["", "chain.p7b:\n", "authorized key (RFC 4716):\n", "public part:\n"]))
        doc.look(v, kind)
        doc.t("\n")
        return
    lead, v, tail = {
        # Ciphertext and hashes: what stands where a secret was, never the secret.
        "sops_enc": ("  password: ", "ENC[AES256_GCM,data:%s,iv:%s,tag:%s,type:str]" % (
            _s(r, B64, q(16, 40)), _s(r, B64, 43) + "=", _s(r, B64, 22) + "=="), "\n"),
        "sealed_secret": ("  encryptedData:\n    password: ", "AgB" + _s(r, B64, 400) + "==", "\n"),
        "vault_transit": ("\"ciphertext\": \"", "vault:v%d:%s" % (q(1, 4), _s(r, B64, 64) + "=="), "\"\n"),
        "kms_blob": ("\"CiphertextBlob\": \"", "AQICAHh" + _s(r, B64, 180) + "==", "\",\n"),
        "bcrypt_hash": ("\"encrypted_password\": \"", _bcrypt(r), "\",\n"),
        "shadow_sha512": ("kiosk:", "$6$%s$%s" % (_s(r, AN + "./", 16), _s(r, AN + "./", 86)), ":20064:0:99999:7:::\n"),
        "argon2_hash": ("password_hash = '", "$argon2id$v=19$m=65536,t=3,p=4$%s$%s" % (_s(r, B64, 22), _s(r, B64, 43)), "'\n"),
        "django_pbkdf2": ("| password | ", "pbkdf2_sha256$870000$%s$%s=" % (_s(r, AN, 22), _s(r, B64, 43)), " |\n"),
        "pg_scram": ("rolpassword | ", "SCRAM-SHA-256$4096:%s==$%s=:%s=" % (_s(r, B64, 22), _s(r, B64, 43), _s(r, B64, 43)), "\n"),
        "mysql_native": ("| app  | % | ", "*" + _s(r, UHEX, 40), " |\n"),
        "werkzeug_hash": ("pw_hash: ", "scrypt:32768:8:1$%s$%s" % (_s(r, AN, 16), _s(r, HEX, 128)), "\n"),
        # Public key material.
        "jwks_public": ("{\"keys\":[{\"kty\":\"RSA\",\"use\":\"sig\",\"kid\":\"%s\",\"n\":\"" % _s(r, B64URL, 20),
                        _s(r, B64URL, 342), "\",\"e\":\"AQAB\"}]}\n"),
        "dkim_txt": ("sel1._domainkey IN TXT \"v=DKIM1; k=rsa; p=", "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + _s(r, B64, 300) + "IDAQAB", "\"\n"),
        "dnskey": ("example.net. 3600 IN DNSKEY 257 3 13 ", _s(r, B64, 86) + "==", "\n"),
        "minisign_pub": ("untrusted comment: minisign public key %s\n" % _s(r, UHEX, 16), "RW" + _s(r, B64, 54), "\n"),
        "hpkp_pin": ("pin-sha256=\"", _s(r, B64, 43) + "=", "\"; max-age=5184000\n"),
        # Identifiers that gitleaks-style rules take for keys.
        "aws_aroa": ("\"principalId\": \"", "AROA%s:%s" % (_s(r, UP + "234567", 17), r.choice(["botocore-session-%d" % q(10 ** 9, 10 ** 10 - 1), "kiri.tane"])), "\",\n"),
        "aws_aida": ("\"UserId\": \"", "AIDA" + _s(r, UP + "234567", 17), "\",\n"),
        "oci_ocid": ("compartment_id = \"", "ocid1.compartment.oc1..aaaaaaaa" + _s(r, "abcdefghijklmnopqrstuvwxyz234567", 52), "\"\n"),
        "gcp_sa_uid": ("\"uniqueId\": \"", "1" + _d(r, 20), "\",\n"),
        "alibaba_arn": ("\"RoleArn\": \"", "acs:ram::%s:role/aliyunecsdefaultrole" % _no_card(r, m, lambda: "1" + _d(r, 15)), "\",\n"),
        "posthog_phc": ("posthog.init('", "phc_" + _s(r, AN, 43), "', { api_host: 'https://eu.i.posthog.com' })\n"),
        "recaptcha_sitekey": ("<div class=\"g-recaptcha\" data-sitekey=\"", "6L" + _s(r, "cdef", 1) + _s(r, AN + "_-", 37), "\"></div>\n"),
        "turnstile_sitekey": ("<div class=\"cf-turnstile\" data-sitekey=\"", "0x4AAAAAAA" + _s(r, AN + "_-", 12), "\"></div>\n"),
        "mapbox_pk": ("mapboxgl.accessToken = '", "pk.%s.%s" % (_b64u('{"u":"%s","a":"%s"}' % (_s(r, LOW, 8), _s(r, LOW + D, 25))), _s(r, B64URL, 22)), "';\n"),
        "adsense_pub": ("<ins class=\"adsbygoogle\" data-ad-client=\"", "ca-pub-" + _no_card(r, m, lambda: _d(r, 16)), "\"></ins>\n"),
        "gads_customer_id": ("Google Ads customer ID: ", "%s-%s-%s" % (_d(r, 3), _d(r, 3), _d(r, 4)), "\n"),
        "fb_pixel": ("fbq('init', '", _no_card(r, m, lambda: _d(r, r.choice([15, 16]))), "');\n"),
        "detached_jws": ("x-jws-signature: ", "%s..%s" % (_b64u('{"alg":"PS256","kid":"%s","b64":false,"crit":["b64"]}' % _s(r, AN, 20)), _s(r, B64URL, 342)), "\n"),
        # Ids and hashes.
        "ksuid": ("\"event_id\": \"", _s(r, AN, 27), "\",\n"),
        "nanoid": ("\"public_id\": \"", _s(r, AN + "_-", 21), "\",\n"),
        "cuid": ("\"id\": \"", "c" + _s(r, LOW + D, 24), "\",\n"),
        "xid": ("request_id=", _s(r, "0123456789abcdefghijklmnopqrstuv", 20), " "),
        "firebase_push_id": ("\"/messages/", "-" + _s(r, AN + "_-", 19), "\": {\n"),
        "youtube_id": ("https://www.youtube.com/watch?v=", _s(r, AN + "_-", 11), "\n"),
        "spotify_uri": ("", "spotify:track:" + _s(r, AN, 22), "\n"),
        "slack_ids": ("<@", "U0" + _s(r, UP + D, 9), "> in <#C0%s|billing>\n" % _s(r, UP + D, 9)),
        "ja3": ("ja3=", hexid(32), " ja3s=%s\n" % hexid(32)),
        "ja4": ("\"ja4\": \"", "t13d%02d%02dh2_%s_%s" % (q(10, 20), q(10, 20), hexid(12), hexid(12)), "\",\n"),
        "jarm": ("JARM: ", hexid(62), "\n"),
        "ssdeep": ("ssdeep: ", "%d:%s:%s" % (r.choice([3, 6, 12, 24, 48, 96, 192, 384]), _s(r, B64, q(20, 64)), _s(r, B64, q(10, 32))), "\n"),
        "tlsh": ("TLSH: ", "T1" + _s(r, UHEX, 70), "\n"),
        "magnet_btih": ("", "magnet:?xt=urn:btih:%s&dn=debian-13.2.0-amd64-netinst.iso" % hexid(40), "\n"),
        "git_lfs_pointer": ("version https://git-lfs.github.com/spec/v1\noid sha256:", hexid(64), "\nsize %d\n" % q(1000, 10 ** 9)),
        # Registry numbers.
        "isni": ("ISNI ", "0000 000%s %s %s" % (_d(r, 1), _d(r, 4), _d(r, 3) + r.choice(D + "X")), "\n"),
        "isan": ("ISAN ", "0000-000%s-%s-0000-%s-0000-0000-%s" % (_s(r, UHEX, 1), _s(r, UHEX, 4), r.choice(UP), r.choice(UP + D)), "\n"),
        "imsi": ("IMSI ", _no_card(r, m, lambda: (lambda p: p + _d(r, 15 - len(p)))(r.choice(["310260", "262019", "234159", "46001", "72406"]))), "\n"),
        "imeisv": ("IMEISV: ", _no_card(r, m, lambda: "35" + _d(r, 14)), "\n"),
        "gln": ("GLN ", _no_card(r, m, lambda: _gs1(r.choice(["40", "50", "76", "87"]) + _d(r, 10))), "\n"),
        "nsn": ("NSN ", "%s-%s-%s-%s" % (r.choice(["5340", "5305", "6515", "8415"]), _d(r, 2), _d(r, 3), _d(r, 4)), "\n"),
        "bag_tag": ("Bag tag ", "0%s %s %s" % (_d(r, 3), r.choice(["LH", "SN", "ET", "KQ"]), _d(r, 6)), "\n"),
        "loinc": ("LOINC ", "%d-%d" % (q(1000, 99999), q(0, 9)), "\n"),
        "ensembl": ("gene ", "ENSG%011d" % q(1, 300000), "\n"),
        "go_term": ("", "GO:%07d" % q(1, 2000000), " biological_process\n"),
        "pmid": ("PMID: ", "%d" % q(10_000_000, 41_000_000), "\n"),
        # Places.
        "geohash": ("\"geohash\": \"", _geohash(r, q(7, 12)), "\",\n"),
        "swiss_lv95": ("LV95 ", "%d'%03d.%02d / %d'%03d.%02d" % (q(2485, 2833), q(0, 999), q(0, 99), q(1075, 1295), q(0, 999), q(0, 99)), "\n"),
        "utm": ("UTM ", "%d%s %d %d" % (q(1, 60), r.choice("CDEFGHJKLMNPQRSTUVWX"), q(166000, 833999), q(1000000, 9300000)), "\n"),
        "dms_coord": ("", "%d°%02d′%02d″%s %d°%02d′%02d″%s" % (q(0, 89), q(0, 59), q(0, 59), r.choice("NS"), q(0, 179), q(0, 59), q(0, 59), r.choice("EW")), "\n"),
        "map_tile": ("https://tile.example.net/", "%d/%d/%d.png" % (q(10, 18), q(0, 262143), q(0, 262143)), "\n"),
        # Business and tax numbers of organisations (never of people).
        "npwp": ("NPWP: ", "%02d.%03d.%03d.%d-%03d.000" % (q(1, 99), q(0, 999), q(0, 999), q(0, 9), q(0, 999)), "\n"),
        "cl_rut": ("RUT ", "%d.%03d.%03d-%s" % (q(76, 99), q(0, 999), q(0, 999), r.choice(D + "K")), "\n"),
        "ar_cuit": ("CUIT ", "%s-%s-%d" % (r.choice(["30", "33", "34"]), _d(r, 8), q(0, 9)), "\n"),
        "be_kbo": ("Ondernemingsnummer ", "0%s.%s.%s" % (_d(r, 3), _d(r, 3), _d(r, 3)), "\n"),
        "ch_uid": ("UID ", "CHE-%s.%s.%s" % (_d(r, 3), _d(r, 3), _d(r, 3)), " MWST\n"),
        "sg_uen": ("UEN ", "20%s%s%s" % (_d(r, 2), _d(r, 5), r.choice(UP)), "\n"),
        "cn_uscc": ("统一社会信用代码：", "91%s%s%s" % (_d(r, 6), _s(r, "0123456789ABCDEFGHJKLMNPQRTUWXY", 9), r.choice("0123456789ABCDEFGHJKLMNPQRTUWXY")), "\n"),
        "jp_corporate": ("法人番号 ", _no_card(r, m, lambda: _d(r, 13)), "\n"),
        "ph_tin": ("TIN ", "%s-%s-%s-000" % (_d(r, 3), _d(r, 3), _d(r, 3)), "\n"),
        "hu_adoszam": ("Adószám: ", "%s-%d-%02d" % (_d(r, 8), q(1, 5), q(2, 44)), "\n"),
        "fcc_frn": ("FCC Registration Number (FRN): ", "00%s" % _d(r, 8), "\n"),
        "sam_uei": ("UEI ", _s(r, "ABCDEFGHJKLMNPQRSTUVWXYZ123456789", 12), "\n"),
        "ca_bn": ("Business Number ", "%s RT0001" % _d(r, 9), "\n"),
        # Money in local groupings.
        "inr_lakh": ("Total: ", "₹%d,%02d,%02d,%03d.%02d" % (q(1, 99), q(0, 99), q(0, 99), q(0, 999), q(0, 99)), "\n"),
        "chf_amount": ("Betrag: ", "CHF %d'%03d'%03d.%02d" % (q(1, 99), q(0, 999), q(0, 999), q(0, 99)), "\n"),
        "fr_amount": ("Montant TTC : ", "%d\u202f%03d\u202f%03d,%02d €" % (q(1, 99), q(0, 999), q(0, 999), q(0, 99)), "\n"),
        "se_bankgiro": ("Bankgiro ", "%s-%s" % (_d(r, 3 + q(0, 1)), _d(r, 4)), "\n"),
        "cz_symbols": ("VS: ", "%s" % _d(r, 10), ", KS: 0308, SS: %s\n" % _d(r, 6)),
        "dk_fik": ("", "+71<%s+%s<" % (_d(r, 15), _d(r, 8)), "\n"),
        # @, :: and dotted shapes that are none of the classes.
        "brew_formula": ("brew install ", r.choice(["python@3.12", "openssl@3", "postgresql@16", "node@20", "mysql@8.4"]), "\n"),
        "git_reflog": ("git reset --hard ", r.choice(["HEAD@{%d}" % q(1, 30), "main@{upstream}", "stash@{%d}" % q(0, 5), "@{-1}"]), "\n"),
        "bazel_label": ("load(\"", r.choice(["@rules_go//go:def.bzl", "@io_bazel_rules_docker//container:image.bzl", "@bazel_skylib//lib:paths.bzl"]), "\", \"go_library\")\n"),
        "iban_template": ("format: ", r.choice(["DEkk bbbb bbbb cccc cccc cc", "GBkk bbbb ssss sscc cccc cc", "FRkk bbbb bggg ggcc cccc cccc cxx"]), "\n"),
        "deb_version": ("Version: ", "1:%d.%d.%d-%dubuntu%d.%d" % (q(1, 9), q(0, 40), q(0, 9), q(0, 3), q(1, 9), q(1, 9)), "\n"),
        "android_build": ("Build: ", "%s.%02d%02d%02d.%03d" % (r.choice(["TQ3A", "UP1A", "AP2A", "BP1A"]), q(23, 26), q(1, 12), q(1, 28), q(1, 99)), "\n"),
        "kernel_release": ("Linux build01 ", "%d.%d.%d-%d-%s" % (q(5, 6), q(4, 15), q(0, 9), q(10, 1100), r.choice(["generic", "azure", "aws", "gcp"])), " #56-Ubuntu SMP x86_64\n"),
        "excel_serial": ("<c r=\"B%d\" s=\"3\"><v>" % q(2, 999), "%d.%d" % (q(44000, 47000), q(1, 99999)), "</v></c>\n"),
        "julian_date": ("JD ", "24%d.%d" % (q(59000, 62000), q(0, 99999)), "\n"),
        "zigbee_ieee": ("'", "0x00158d000" + hexid(7), "':\n    friendly_name: kitchen_sensor\n"),
        "bible_ref": ("Reading: ", "%s %d:%d-%d" % (r.choice(["John", "Psalm", "Genesis", "Romans"]), q(1, 50), q(1, 20), q(21, 40)), "\n"),
        "aspect_ratio": ("-vf scale=1920:1080,setdar=", r.choice(["16:9", "4:3", "21:9"]), "\n"),
    }[kind]
    if _cardish(m, v):
        return i_look(r, doc, m)  # a run of digits in it would be a card number: draw another
    doc.t(lead)
    doc.look(v, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["\n", "\n\n", "---\n", "$ \n", "(gdb) \n", "\\\\\n", "</item>\n", "    },\n"]


def heldout17_doc(r, doc, m):
    """One text of the eighteenth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
