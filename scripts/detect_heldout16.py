"""The sixteenth held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout16`; not run on its own.

A seventeenth template family, written and committed before any detector
change of the round that tunes on heldout15, from real-world formats and
not from the detectors' code: the session that wrote it did not read the
detectors (`crates/tracegate/src/redact`), their documentation or any
split's report; it grepped the fifteen earlier families only for
surroundings and value shapes to keep clear of. Only its summary and
per-class table are looked at until the round's final measurement.

Surroundings that no other family writes, most from documents and media
transcripts, CI systems, data platforms, trading and invoicing formats,
mail and password-manager exports and less common languages of code:
SubRip (`.srt`) and WebVTT captions of support calls, PDF content
streams (`(...) Tj`, one `Tj`/`T*` per line), Word `document.xml` runs
(`<w:t>`, `<w:br/>`), Excel `sharedStrings.xml` (`<si><t>`), Jira
Atlassian Document Format JSON, Confluence storage-format code macros,
BBCode forum posts, DiscordChatExporter text, Zendesk ticket JSON,
Node `util.inspect` and Python dataclass `repr` output; GitHub Actions
run logs (timestamp prefixes, `::add-mask::`), Azure DevOps `##vso`
and TeamCity `##teamcity` service messages; FIX 4.4 Logon messages;
Hadoop `core-site.xml`/`hive-site.xml` properties, `spark-defaults.conf`,
Trino catalog properties, `hdbuserstore`, `sqlplus user/pw@//...`,
`db2 connect ... using`, kdb+ `hopen` handles, AWS CDK
`SecretValue.unsafePlainText`, `az ad sp create-for-rbac` output,
`kaggle.json`, Keycloak realm exports, Kong declarative config,
shadowsocks and 3proxy configs, Monit, `.mbsyncrc`, Thunderbird
`prefs.js`, Chrome and LastPass CSV exports, Poetry, Bundler `BUNDLE_`,
`DENO_AUTH_TOKENS`, `bunfig.toml`, `gitlab.rb`, Docker Compose inline
`configs:`; code in ColdFusion (CFML), Jinja2, AutoHotkey (hotstrings,
continuation sections), GDScript, Haxe, Janet, Fennel, Red, MUMPS,
JCL, REXX, Forth, Lean 4, Ballerina, Chapel, Pony, Hare, Io;
`MAINTAINERS`, `CODEOWNERS`, `security.txt`, DMARC `rua=`, gemspecs,
Maven `<developer>`, `debian/changelog` trailers; network state as
`lsof -i`, `conntrack -L`, `hosts.allow`, pf tables, CrowdSec
`cscli decisions list`, Unbound and Knot `addr@port`, CoreDNS
`forward`, `.rdp` files, `netsh interface portproxy`,
`Test-NetConnection`, `Get-NetTCPConnection`, StatsD tags, PeeringDB
JSON, gRPC `ipv6:[...]` targets; UBL and ZUGFeRD invoices, `payto://`
URIs (RFC 8905), EDIFACT `FII` segments; forms (1099, I-9, SSA-89,
FAFSA); prose in Upper Sorbian, Kashubian, Friulian, Manx, Asturian,
Papiamento, Sundanese, Ilocano, Tongan, Chamorro, Bislama, Twi, Ewe,
Luganda, Kikuyu, Tsonga, Hmong, Low German, Walloon, Ladino, Crimean
Tatar, Karakalpak, Sakha, Cantonese, Syriac, Santali (Ol Chiki) and
Tamazight (Tifinagh) (short phrases, written by the session and only
roughly idiomatic).

Values in shapes the earlier families did not write as such a set:
phones of Macau, Venezuela, DR Congo, Mozambique, Réunion, Curaçao,
Vanuatu, New Caledonia, Afghanistan, Syria, Aruba, Martinique, Comoros,
Eritrea, South Sudan, Chad, Central African Republic, Congo, Gabon,
Equatorial Guinea, Guinea, Guinea-Bissau, Cape Verde, Solomon Islands,
Guadeloupe, French Guiana, Cayman Islands, American Samoa, Puerto Rico;
cards of Visa Electron, Napas (16 and 19 digits), InterPayment,
InstaPayment, LankaPay, mada, PROSTIR, Belkart and 13-digit Visa,
grouped by narrow no-break spaces or OCR double spaces; IBANs in
`payto://`, UBL, ZUGFeRD, EDIFACT and the documents above; SSNs in US
forms, captions, `repr`s and MUMPS globals; provider tokens no family
wrote (GitHub `gho_`/`ghu_`, Fly.io `fm2_`, Bitbucket `ATBB`,
Flutterwave `FLWSECK-`, Plaid `access-production-`, Mailchimp `-usNN`,
Slack `xapp-`, Mapbox `sk.`, GitLab `GR1348941`, NVIDIA `nvapi-`,
DigitalOcean `doo_v1_`, Heroku `HRKU-`, Sourcegraph `sgp_`, Apify,
ngrok, EasyPost, Azure Service Bus `SharedAccessKey=`, Azure service
principal secrets with `8Q~`, Postmark and Heroku UUID keys after their
header or variable); JWTs with PS256/PS512/ES256K/HS512 and `at+jwt`
headers in STOMP `passcode:`, Socket.IO and graphql-ws handshakes;
private keys with OpenSSH's 70-column lines, escaped as rsyslog `#012`,
in PostgreSQL `E'...'` strings, per-line PDF `Tj`, Word runs, ADF
code blocks, GitHub Actions log lines; URLs with a password for
`telnet`, `afp`, `davs`, `hive`, `trino`, `presto`, `oracle+cx_oracle`,
`mssql+pyodbc`, `firebird+fdb`, `db2+ibm_db`, `hana`, `influxdb`,
`cassandra`, Neon `npg_` passwords, with `%40`, `%2F`, `%2B` and `%25`
in the password.

Look-alikes no family wrote as such a set: METAR reports, ADS-B SBS-1
lines, InChIKeys, SMILES, EC numbers (four dotted integers), MeSH tree
numbers, genomic loci with thousands separators, HGVS names, dbSNP ids,
UniProt accessions, FASTQ quality strings, DICOM UIDs, EDGAR accession
numbers and CIKs, SEDOLs, WKNs, ISRCs, ISWCs, ASINs, Amazon order
numbers, PayPal transaction ids, SteamID64s, Xbox XUIDs, Windows
FILETIMEs, .NET ticks, GCP `X-Cloud-Trace-Context`, Jaeger
`uber-trace-id`, AWS X-Ray ids, Datadog trace ids, S2 cell ids, H3
indexes, Plus codes, MGRS references, what3words, Maidenhead locators,
TAI64N stamps, Gerrit Change-Ids, package URLs, CPEs, GHSA ids,
Terraform lock `zh:` hashes, Gradle `@aar` coordinates, kubeconfig
context names, Oracle thin JDBC URLs, Google Maps `@lat,lng` and
Mastodon `/@user` URLs, SIREN, Norwegian, Swedish and Australian
business numbers, CNPJs, GSTINs, Belgian structured communications,
Norwegian KID numbers, eSIM EIDs, MEIDs, Apple team ids, KB numbers,
ISO 8601 durations, cron lines, FEN positions, ISO 6709 points,
ISMNs, library barcodes, .NET strong names (four-part versions and
`PublicKeyToken`), PDF xref rows, Word `rsid`s, DHCPv6 DUIDs, onion
addresses, SSH signature, age, CRL and PGP signature blocks. Digit-only
look-alikes of 12 to 19 digits that begin like a card are drawn again
when they pass Luhn, so none is a card number by accident.

It reuses only the value makers of `detect_corpus.py` (luhn digit and
check) and the small ones of `detect_values.py`. Its texts are drawn
from their own seed (`detect_corpus.py` offsets the split's seed by
16016). It is the project's own, like the others.
"""
import base64
import uuid

from detect_values import AN, D, HEX, UHEX, UP, LOW, B64, B64URL, _d, _nz, _put, _seq, _s, _ssn, _tok, with_check, family_doc


# ------------------------------------------------------------ value makers

def _iban(r):
    country, bban = r.choice([
        ("DE", lambda: _d(r, 18)),
        ("FR", lambda: _d(r, 10) + _s(r, UP + D, 11) + _d(r, 2)),
        ("NL", lambda: _s(r, UP, 4) + _d(r, 10)),
        ("BE", lambda: _d(r, 12)),
        ("AT", lambda: _d(r, 16)),
        ("LU", lambda: _d(r, 3) + _s(r, UP + D, 13)),
        ("IT", lambda: _s(r, UP, 1) + _d(r, 10) + _s(r, UP + D, 12)),
        ("ES", lambda: _d(r, 20)),
        ("PT", lambda: _d(r, 21)),
        ("FI", lambda: _d(r, 14)),
        ("EE", lambda: _d(r, 16)),
        ("SI", lambda: _d(r, 15)),
        ("SK", lambda: _d(r, 20)),
        ("HR", lambda: _d(r, 17)),
        ("IE", lambda: _s(r, UP, 4) + _d(r, 14)),
        ("MT", lambda: _s(r, UP, 4) + _d(r, 5) + _s(r, UP + D, 18)),
        ("GR", lambda: _d(r, 7) + _s(r, UP + D, 16)),
        ("CY", lambda: _d(r, 8) + _s(r, UP + D, 16)),
        ("LT", lambda: _d(r, 16)),
        ("LV", lambda: _s(r, UP, 4) + _s(r, UP + D, 13)),
        ("CH", lambda: _d(r, 5) + _s(r, UP + D, 12)),
        ("NO", lambda: _d(r, 11)),
        ("SA", lambda: _d(r, 2) + _s(r, UP + D, 18)),
        ("AE", lambda: _d(r, 19)),
        ("MU", lambda: _s(r, UP, 4) + _d(r, 16) + "000MUR"),
    ])
    return with_check(country, bban())


def _spaced(s, sep=" "):
    return sep.join(s[i:i + 4] for i in range(0, len(s), 4))


def _card(r, m):
    """A card of a brand no family named, or a usual one, with its Luhn digit."""
    kind = r.choice(["visa_electron", "napas", "napas19", "interpayment", "instapayment", "lankapay", "mada",
                     "prostir", "belkart", "visa13", "visa", "mc", "amex", "discover"])
    prefix, n = {
        "visa_electron": (r.choice(["4026", "417500", "4508", "4844", "4913", "4917"]), 16),
        "napas": ("9704", 16),
        "napas19": ("9704", 19),
        "interpayment": ("636", 16),
        "instapayment": (str(r.randint(637, 639)), 16),
        "lankapay": ("357111", 16),
        "mada": (r.choice(["588845", "968208", "440647"]), 16),
        "prostir": ("9804", 16),
        "belkart": ("9112", 16),
        "visa13": ("4", 13),
        "visa": ("4", 16),
        "mc": (r.choice(["51", "52", "53", "54", "55"]), 16),
        "amex": (r.choice(["34", "37"]), 15),
        "discover": ("6011", 16),
    }[kind]
    body = prefix + _d(r, n - 1 - len(prefix))
    return body + m.luhn_digit(body), kind


def _card_shown(r, c):
    """How a caption, a form or a person writes the number."""
    if len(c) == 15:
        return r.choice(["%s %s %s" % (c[:4], c[4:10], c[10:]), c])
    if len(c) == 13:
        return r.choice([c, "%s %s %s %s" % (c[:4], c[4:7], c[7:10], c[10:])])
    return r.choice([_spaced(c), _spaced(c, "\u202f"), _spaced(c, "  "), _spaced(c, "-"), c])


NEW_PHONES = [
    ("mo", lambda r: "+853 6%s %s" % (_d(r, 3), _d(r, 4))),
    ("ve", lambda r: "+58 41%s-%s %s" % (r.choice("246"), _d(r, 3), _d(r, 4))),
    ("cd", lambda r: "+243 8%s %s %s" % (r.choice("1249"), _d(r, 3), _d(r, 4))),
    ("mz", lambda r: "+258 8%s %s %s" % (r.choice("2467"), _d(r, 3), _d(r, 4))),
    ("re", lambda r: "+262 692 %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2))),
    ("cw", lambda r: "+599 9 5%s %s" % (_d(r, 2), _d(r, 4))),
    ("vu", lambda r: "+678 5%s %s" % (_d(r, 1), _d(r, 5))),
    ("nc", lambda r: "+687 7%s.%s.%s" % (_d(r, 1), _d(r, 2), _d(r, 2))),
    ("af", lambda r: "+93 7%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4))),
    ("sy", lambda r: "+963 9%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3))),
    ("aw", lambda r: "+297 56%s %s" % (_d(r, 1), _d(r, 4))),
    ("mq", lambda r: "+596 696 %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2))),
    ("km", lambda r: "+269 3%s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2))),
    ("er", lambda r: "+291 7 %s %s" % (_d(r, 3), _d(r, 3))),
    ("ss", lambda r: "+211 9%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3))),
    ("td", lambda r: "+235 6%s %s %s %s" % (_d(r, 1), _d(r, 2), _d(r, 2), _d(r, 2))),
    ("cf", lambda r: "+236 7%s %s %s %s" % (_d(r, 1), _d(r, 2), _d(r, 2), _d(r, 2))),
    ("cg", lambda r: "+242 06 %s %s" % (_d(r, 3), _d(r, 4))),
    ("ga", lambda r: "+241 06 %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2))),
    ("gq", lambda r: "+240 222 %s %s" % (_d(r, 3), _d(r, 3))),
    ("gn", lambda r: "+224 62%s %s %s %s" % (_d(r, 1), _d(r, 2), _d(r, 2), _d(r, 2))),
    ("gw", lambda r: "+245 95%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3))),
    ("cv", lambda r: "+238 99%s %s %s" % (_d(r, 1), _d(r, 2), _d(r, 2))),
    ("sb", lambda r: "+677 7%s %s" % (_d(r, 1), _d(r, 5))),
    ("gp", lambda r: "+590 690 %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2))),
    ("gf", lambda r: "+594 694 %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2))),
    ("ky", lambda r: "+1 (345) %s%s-%s" % (_nz(r), _d(r, 2), _d(r, 4))),
    ("as", lambda r: "+1 684 %s%s %s" % (_nz(r), _d(r, 2), _d(r, 4))),
    ("pr", lambda r: "+1-787-%s%s-%s" % (_nz(r), _d(r, 2), _d(r, 4))),
]


def _phone(r):
    return r.choice(NEW_PHONES)[1](r)


def _v4(r):
    if r.random() < 0.25:
        return r.choice([
            lambda: "10.%d.%d.%d" % (r.randint(0, 255), r.randint(0, 255), r.randint(2, 254)),
            lambda: "172.%d.%d.%d" % (r.randint(16, 31), r.randint(0, 255), r.randint(2, 254)),
            lambda: "192.168.%d.%d" % (r.randint(0, 255), r.randint(2, 254)),
        ])()
    return "%d.%d.%d.%d" % (r.choice([31, 37, 45, 64, 77, 81, 87, 91, 95, 103, 113, 117, 131, 141, 151, 161, 171,
                                      185, 195, 213, 217]),
                            r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2a01:4f8:%s:%s::%s" % (g(), g(), g()),
        lambda: "2a02:c207:%s:%s::%s" % (g(), g(), g()),
        lambda: "2605:a140:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),
        lambda: "2400:8901:%s::%s:%s" % (g(), g(), g()),
        lambda: "2804:14c:%s:%s:%s::%s" % (g(), g(), g(), g()),
        lambda: "fd7a:115c:a1e0::%s:%s" % (g(), g()),
        lambda: "2001:41d0:%s:%s::%s" % (g(), g(), g()),
    ])()


def _b64u(raw):
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _jwt(r):
    alg = r.choice(["PS256", "PS512", "ES256K", "HS512", "ES512"])
    head = '{"alg":"%s","typ":"%s","kid":"%s"}' % (alg, r.choice(["at+jwt", "JWT"]), _s(r, LOW + D, 10))
    body = '{"iss":"https://id.%s.example","aud":"%s","client_id":"%s","iat":%d,"exp":%d}' % (
        r.choice(["payroll", "fleet", "lab"]), r.choice(["api", "ws", "graphql"]), _s(r, LOW + D, 16),
        r.randint(1_700_000_000, 1_800_000_000), r.randint(1_800_000_000, 1_900_000_000))
    sig = {"PS256": 342, "PS512": 342, "ES256K": 86, "HS512": 86, "ES512": 176}[alg]
    return "%s.%s.%s" % (_b64u(head), _b64u(body), _s(r, B64URL, sig))


def _pem(r, kind):
    """The lines of a PEM block; OpenSSH writes 70 columns, the others 64."""
    width = 70 if kind == "OPENSSH " else 64
    body = [_s(r, B64, width) for _ in range(r.randint(5, 9))] + [_s(r, B64, r.randint(8, width - 4)) + "="]
    return ["-----BEGIN %sPRIVATE KEY-----" % kind] + body + ["-----END %sPRIVATE KEY-----" % kind]


def _pw(r):
    """A password as people pick them for service accounts."""
    return _tok(r, r.randint(12, 20)) + r.choice(["", "!", "#", "*", "+", "~", "^", "-", "_"])


def _url_pw(r):
    """A password as it stands in a URL's user info, percent-encoded where it must be."""
    return _tok(r, r.randint(10, 20)) + r.choice(["", "", "%40", "%2F", "%2B" + _d(r, 2), "%25", "!", "~"])


# ------------------------------------------------------------ prose

PROSE = {
    "hsb": "Prošu skontaktujće {} ",              # Upper Sorbian
    "csb": "Proszã skòntaktowac sã z {} ",       # Kashubian
    "fur": "Par plasê contatait {} ",            # Friulian
    "gv": "Cur fys da {} my sailt ",              # Manx
    "ast": "Por favor, contauta con {} ",         # Asturian
    "pap": "Por fabor tuma kontakto ku {} ",      # Papiamento
    "su": "Mangga hubungi {} ",                   # Sundanese
    "ilo": "Pangngaasim ta kontakem ti {} ",      # Ilocano
    "to": "Kataki ʻo fetuʻutaki ki he {} ",       # Tongan
    "ch": "Pot fabot kontakta si {} ",            # Chamorro
    "bi": "Plis yu kontaktem {} ",                # Bislama
    "tw": "Mesrɛ wo, frɛ {} ",                    # Twi
    "ee": "Meɖe kuku, ƒo ka na {} ",              # Ewe
    "lg": "Tukusaba otuukirire {} ",              # Luganda
    "ki": "Ndagũthaitha ũhũre {} ",               # Kikuyu
    "ts": "Hi kombela u ti hlanganisa na {} ",    # Tsonga
    "hmn": "Thov hu rau {} ",                     # Hmong
    "nds": "Bitte mell di bi {} ",                # Low German
    "wa": "Prindoz contake avou {} ",             # Walloon
    "lad": "Por favor, kontakta kon {} ",         # Ladino
    "crh": "Lütfen, bağlanıñız: {} ",             # Crimean Tatar
    "kaa": "Iltimas, baylanısıń: {} ",            # Karakalpak
    "sah": "Бука суох ситимнэһиҥ: {} ",           # Sakha
    "yue": "唔該聯絡 {} ",                        # Cantonese
    "syc": "ܒܥܘܬܐ ܡܚܒܪ ܥܡ {} ",                    # Syriac
    "sat": "ᱫᱟᱭᱟ ᱠᱟᱛᱮ ᱥᱟᱯᱲᱟᱣ ᱢᱮ {} ",               # Santali (Ol Chiki)
    "zgh": "ⵎⵢⴰⵡⴰⴹ ⴷ {} ",                       # Tamazight (Tifinagh)
}


def _prose(r, doc, value, cls, form_prefix, word):
    lang = r.choice(sorted(PROSE))
    lead, tail = PROSE[lang].split("{}")
    _put(doc, lead + word + " ", value, cls, "%s_%s" % (form_prefix, lang), tail + "\n")


# ------------------------------------------------------------ carriers
#
# A few surroundings every class is written in: each takes a label and
# a value and gives the text before and after it.

def _carrier(r, label, value_kind="text"):
    form = r.choice(["srt", "vtt", "pdf_tj", "docx", "xlsx", "py_repr", "node_inspect", "zendesk", "discord",
                     "bbcode", "jira_adf"])
    at = r.randint(0, 2400)
    t0, t1 = at, at + r.randint(2, 6)
    ts0 = "00:%02d:%02d" % divmod(t0, 60)
    ts1 = "00:%02d:%02d" % divmod(t1, 60)
    key = label.lower().replace(" ", "_").replace("-", "").replace(".", "")
    lead, tail = {
        "srt": ("%d\n%s,%03d --> %s,%03d\nCALLER: my %s is " % (r.randint(2, 300), ts0, r.randint(0, 999), ts1,
                                                              r.randint(0, 999), label), "\n\n"),
        "vtt": ("%s.%03d --> %s.%03d\n<v Caller>so the %s is " % (ts0, r.randint(0, 999), ts1, r.randint(0, 999), label),
                "</v>\n\n"),
        "pdf_tj": ("BT /F1 9 Tf 72 %d Td (%s:) Tj 140 0 Td (" % (r.randint(90, 700), label), ") Tj ET\n"),
        "docx": ("<w:r><w:rPr><w:b/></w:rPr><w:t xml:space=\"preserve\">%s: </w:t></w:r><w:r><w:t>" % label,
                 "</w:t></w:r>\n"),
        "xlsx": ("<si><t>%s</t></si><si><t>" % label, "</t></si>\n"),
        "py_repr": ("Customer(id=%d, name='Kalani Kahale', %s='" % (r.randint(1, 99999), key), "', active=True)\n"),
        "node_inspect": ("{\n  id: %d,\n  %s: '" % (r.randint(1, 99999), key), "',\n  tags: [ 'vip' ]\n}\n"),
        "zendesk": ("  \"subject\": \"Update %s\",\n  \"description\": \"Please change my %s to " % (label, label),
                    " thanks\",\n"),
        "discord": ("[07-Dec-26 04:%02d] arami.t\nnew %s: " % (r.randint(0, 59), label), "\n\n"),
        "bbcode": ("[quote=\"ilocano_dev\"][b]%s:[/b] " % label, "[/quote]\n"),
        "jira_adf": ("{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":\"%s: " % label, "\"}]},\n"),
    }[form]
    return form, lead, tail


# ------------------------------------------------------------ items

def _email(r):
    local = r.choice(["kalani.k", "arami", "noc_team", "sean.o'brien", "ama.owusu", "kofi+billing", "mele.t",
                      "nakato.s", "wanjiru", "sipho.m", "tou.vang", "hinnerk", "djeneba", "lieve.d", "Rosa.Benaroya",
                      "ayasha", "maintainers", "psirt", "dmarc-reports", "security"])
    dom = r.choice(["kampala.example.ug", "accra.example.com.gh", "lome.example.tg", "nukualofa.example.to",
                    "hagatna.example.gu", "port-vila.example.vu", "willemstad.example.cw", "oviedo.example.es",
                    "bautzen.example.de", "udine.example.it", "douglas.example.im", "mail2.k8s-prod.example.dev",
                    "lab.example.engineering", "example.photography", "Contoso.Example.ORG"])
    return "%s@%s" % (local, dom)


def i_email(r, doc, m):
    form = r.choice(["maintainers", "codeowners", "security_txt", "dmarc", "gemspec", "pom", "deb_changelog",
                     "mbsync", "thunderbird", "keycloak", "gitlab_rb", "ahk_hotstring", "cfmail", "bbcode_email",
                     "jira_mailto", "carrier", "prose"])
    e = _email(r)
    while "'" in e and form in ("carrier", "gitlab_rb"):
        e = _email(r)  # an apostrophe would end these single-quoted strings
    if form == "prose":
        _prose(r, doc, e, "email", "prose", "e-mail")
        return
    if form == "carrier":
        f, lead, tail = _carrier(r, "e-mail address")
        _put(doc, lead, e, "email", "carrier_" + f, tail)
        return
    if form == "jira_mailto":
        _seq(doc, form, ["{\"type\":\"text\",\"text\":\"", (e, "email"),
                         "\",\"marks\":[{\"type\":\"link\",\"attrs\":{\"href\":\"mailto:", (e, "email"), "\"}}]}\n"])
        return
    lead, tail = {
        "maintainers": ("PAYROLL EXPORT DRIVER\nM:\tKalani Kahale <", ">\nS:\tMaintained\nF:\tdrivers/payroll/\n"),
        "codeowners": ("/services/billing/  ", "  @acme/payments\n"),
        "security_txt": ("Contact: mailto:", "\nExpires: 2027-12-31T23:00:00.000Z\nPreferred-Languages: en, to\n"),
        "dmarc": ("_dmarc.example.ug. 3600 IN TXT \"v=DMARC1; p=quarantine; rua=mailto:", "; fo=1\"\n"),
        "gemspec": ("  spec.authors = [\"Mele Taufa\"]\n  spec.email   = [\"", "\"]\n"),
        "pom": ("<developer>\n  <id>nakato</id>\n  <email>", "</email>\n  <roles><role>lead</role></roles>\n</developer>\n"),
        "deb_changelog": ("  * Rebuild against libssl3.\n\n -- Hinnerk Janssen <", ">  Mon, 07 Dec 2026 04:31:00 +0000\n"),
        "mbsync": ("IMAPAccount work\nHost imap.example.net\nUser ", "\nPassCmd \"pass show mail/work\"\n"),
        "thunderbird": ("user_pref(\"mail.identity.id1.useremail\", \"", "\");\n"),
        "keycloak": ("    {\n      \"username\": \"wanjiru\",\n      \"email\": \"", "\",\n      \"emailVerified\": true,\n"),
        "gitlab_rb": ("gitlab_rails['gitlab_email_reply_to'] = '", "'\n"),
        "ahk_hotstring": ("::@@k::", "\n"),
        "cfmail": ("<cfmail to=\"", "\" from=\"#application.mailFrom#\" subject=\"Invoice\" type=\"html\">\n"),
        "bbcode_email": ("Questions? [email]", "[/email]\n"),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    cc, mk = r.choice(NEW_PHONES)
    p = mk(r)
    form = r.choice(["ahk_hotstring", "keycloak", "gdscript", "haxe", "cfml", "carrier", "carrier",
                     "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, p, "phone", "prose_" + cc, "tel.")
        return
    if form == "carrier":
        f, lead, tail = _carrier(r, "phone number")
        _put(doc, lead, p, "phone", "carrier_%s_%s" % (f, cc), tail)
        return
    lead, tail = {
        "ahk_hotstring": ("::ph1::", "\n"),
        "keycloak": ("      \"attributes\": {\n        \"phoneNumber\": [ \"", "\" ]\n      },\n"),
        "gdscript": ("const SUPPORT_LINE := \"", "\"\n"),
        "haxe": ("static inline var HOTLINE = \"", "\";\n"),
        "cfml": ("<cfset supportPhone = \"", "\">\n"),
    }[form]
    _put(doc, lead, p, "phone", "%s_%s" % (form, cc), tail)


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["form_1099", "form_i9", "ssa89", "fafsa_spaced", "mumps", "keycloak", "cfml", "carrier",
                     "carrier", "carrier"])
    if form == "carrier":
        f, lead, tail = _carrier(r, r.choice(["SSN", "social security number", "Soc. Sec. No."]))
        _put(doc, lead, dashed, "us_ssn", "carrier_" + f, tail)
        return
    if form == "form_1099":
        # The payer's TIN beside it is an EIN, a look-alike.
        doc.t("PAYER'S TIN          RECIPIENT'S TIN\n")
        doc.look("%s-%s" % (_d(r, 2), _d(r, 7)), "payer_ein")
        doc.t("           ")
        doc.item(dashed, "us_ssn", "t_form_1099")
        doc.t("\n")
        return
    lead, v, tail = {
        "form_i9": ("U.S. Social Security Number\n", dashed, "\nEmployee's E-mail Address\n"),
        "ssa89": ("SSA-89 Authorization for the Social Security Administration (SSA) To Release Social Security"
                  " Number (SSN) Verification\nSocial Security Number: ", dashed, "\n"),
        "fafsa_spaced": ("8. Your Social Security Number  ", "%s %s %s" % (a, g, s), "\n"),
        "mumps": (" S ^PATIENT(%d,\"SSN\")=\"" % r.randint(1, 99999), dashed, "\"\n"),
        "keycloak": ("      \"attributes\": { \"ssn\": [ \"", dashed, "\" ] },\n"),
        "cfml": ("<cfset employee.ssn = \"", dashed, "\">\n"),
    }[form]
    _put(doc, lead, v, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = _card(r, m)
    shown = _card_shown(r, c)
    form = r.choice(["cfml", "gdscript", "jinja", "node_test_card", "carrier", "carrier", "carrier", "carrier",
                     "prose"])
    if form == "prose":
        _prose(r, doc, shown, "credit_card", "prose_%s" % kind, "card")
        return
    if form == "carrier":
        f, lead, tail = _carrier(r, r.choice(["card number", "card", "PAN"]))
        _put(doc, lead, shown, "credit_card", "carrier_%s_%s" % (f, kind), tail)
        return
    lead, v, tail = {
        "cfml": ("<cfset testCard = \"", c, "\">\n"),
        "gdscript": ("var card_number := \"", c, "\"\n"),
        "jinja": ("{% set card_pan = \"", c, "\" %}\n"),
        "node_test_card": ("  card: { number: '", c, "', exp_month: 12, exp_year: 2029 },\n"),
    }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = _spaced(i)
    form = r.choice(["payto", "payto_bic", "ubl", "zugferd", "edifact_fii", "jinja", "carrier", "carrier",
                     "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, spaced, "iban", "prose", "IBAN")
        return
    if form == "carrier":
        f, lead, tail = _carrier(r, "IBAN")
        _put(doc, lead, r.choice([i, spaced]), "iban", "carrier_" + f, tail)
        return
    if form == "payto_bic":
        # A BIC before the IBAN (RFC 8905): a bank's public code, a look-alike.
        doc.t("payto://iban/")
        doc.look(_s(r, UP, 4) + i[:2] + r.choice(["FF", "MM", "2X", "PP"]) + r.choice(["", "XXX"]), "bic")
        doc.t("/")
        doc.item(i, "iban", "t_payto_bic")
        doc.t("?message=INV-%d\n" % r.randint(1000, 9999))
        return
    lead, v, tail = {
        "payto": ("payto://iban/", i, "?receiver-name=Nakato%20Ssali&amount=EUR:120.50\n"),
        "ubl": ("<cac:PayeeFinancialAccount>\n  <cbc:ID schemeID=\"IBAN\">", i, "</cbc:ID>\n</cac:PayeeFinancialAccount>\n"),
        "zugferd": ("<ram:PayeePartyCreditorFinancialAccount>\n  <ram:IBANID>", i, "</ram:IBANID>\n</ram:PayeePartyCreditorFinancialAccount>\n"),
        "edifact_fii": ("FII+BF+", i, ":MUSTER GMBH'\n"),
        "jinja": ("{% set payout_iban = \"", i, "\" %}\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4(r)
    port = r.randint(1024, 65000)
    form = r.choice(["lsof", "conntrack", "hosts_allow", "pf_table", "cscli", "unbound", "knot", "coredns", "rdp",
                     "portproxy", "test_netconnection", "get_nettcp", "statsd", "shadowsocks", "gdscript",
                     "monit_host", "peeringdb", "hive_jdbc", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv4", "prose", "IP")
        return
    parts = {
        "lsof": ["nginx   %d www-data   12u  IPv4 %d      0t0  TCP " % (r.randint(100, 99999), r.randint(10000, 999999)),
                 (ip, "ipv4"), ":443->", (ip2, "ipv4"), ":%d (ESTABLISHED)\n" % port],
        "conntrack": ["tcp      6 431999 ESTABLISHED src=", (ip, "ipv4"), " dst=", (ip2, "ipv4"),
                      " sport=%d dport=443 packets=12 bytes=2240 [ASSURED] mark=0 use=1\n" % port],
        "hosts_allow": ["sshd: ", (ip, "ipv4"), "\n"],
        "pf_table": ["table <trusted> persist { ", (ip, "ipv4"), ", ", (ip2, "ipv4"), " }\n"],
        "cscli": ["| %d | crowdsec | Ip:" % r.randint(1000, 99999), (ip, "ipv4"),
                  " | crowdsecurity/ssh-bf | ban | 3h59m |\n"],
        "unbound": ["forward-zone:\n    name: \".\"\n    forward-addr: ", (ip, "ipv4"), "@853\n"],
        "knot": ["remote:\n  - id: primary\n    address: ", (ip, "ipv4"), "@53\n"],
        "coredns": [".:53 {\n    forward . ", (ip, "ipv4"), " ", (ip2, "ipv4"), "\n    cache 30\n}\n"],
        "rdp": ["screen mode id:i:2\nfull address:s:", (ip, "ipv4"), "\nusername:s:ACME\\kalani\n"],
        "portproxy": ["netsh interface portproxy add v4tov4 listenport=8443 listenaddress=", (ip, "ipv4"),
                      " connectport=443 connectaddress=", (ip2, "ipv4"), "\n"],
        "test_netconnection": ["ComputerName     : files01\nRemoteAddress    : ", (ip, "ipv4"),
                               "\nRemotePort       : 445\nTcpTestSucceeded : True\n"],
        "get_nettcp": ["LocalAddress  LocalPort RemoteAddress  RemotePort State\n", (ip, "ipv4"), "  3389      ",
                       (ip2, "ipv4"), "  %d      Established\n" % port],
        "statsd": ["api.request.latency:%d|ms|#route:/v1/orders,client_ip:" % r.randint(1, 900), (ip, "ipv4"), "\n"],
        "shadowsocks": ["{\"server\":\"", (ip, "ipv4"), "\",\"server_port\":8388,\"method\":\"chacha20-ietf-poly1305\"}\n"],
        "gdscript": ["var server_ip := \"", (ip, "ipv4"), "\"\n"],
        "monit_host": ["check host db01 with address ", (ip, "ipv4"), "\n    if failed port 5432 then alert\n"],
        "peeringdb": ["{\"ix_id\": %d, \"asn\": 64%03d, \"ipaddr4\": \"" % (r.randint(1, 999), r.randint(0, 999)),
                      (ip, "ipv4"), "\", \"speed\": 10000}\n"],
        "hive_jdbc": ["beeline -u \"jdbc:hive2://", (ip, "ipv4"), ":10000/default\"\n"],
    }[form]
    _seq(doc, form, parts)


def i_ipv6(r, doc, m):
    ip, ip2 = _v6(r), _v6(r)
    form = r.choice(["lsof", "conntrack", "grpc_target", "unbound", "pf_table", "cscli", "peeringdb", "hosts_allow",
                     "test_netconnection", "rdp", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv6", "prose", "IPv6")
        return
    parts = {
        "lsof": ["sshd    %d root    3u  IPv6 %d      0t0  TCP [" % (r.randint(100, 99999), r.randint(10000, 999999)),
                 (ip, "ipv6"), "]:22->[", (ip2, "ipv6"), "]:%d (ESTABLISHED)\n" % r.randint(1024, 65000)],
        "conntrack": ["tcp      6 117 TIME_WAIT src=", (ip, "ipv6"), " dst=", (ip2, "ipv6"),
                      " sport=%d dport=443 [ASSURED]\n" % r.randint(1024, 65000)],
        "grpc_target": ["grpc.Dial(\"ipv6:[", (ip, "ipv6"), "]:50051\", opts...)\n"],
        "unbound": ["    forward-addr: ", (ip, "ipv6"), "@853\n"],
        "pf_table": ["table <v6peers> { ", (ip, "ipv6"), " }\n"],
        "cscli": ["| %d | crowdsec | Ip:" % r.randint(1000, 99999), (ip, "ipv6"), " | crowdsecurity/http-probing | ban |\n"],
        "peeringdb": ["{\"ix_id\": %d, \"ipaddr6\": \"" % r.randint(1, 999), (ip, "ipv6"), "\"}\n"],
        "hosts_allow": ["sshd: [", (ip, "ipv6"), "]\n"],
        "test_netconnection": ["RemoteAddress    : ", (ip, "ipv6"), "\nInterfaceAlias   : Ethernet\n"],
        "rdp": ["full address:s:[", (ip, "ipv6"), "]:3389\n"],
    }[form]
    _seq(doc, form, parts)


def _provider(r):
    """A provider token no family wrote, in its own shape: (name, token)."""
    u = lambda: str(uuid.UUID(int=r.getrandbits(128), version=4))
    name = r.choice(["gho", "ghu", "fly", "bitbucket", "flutterwave", "plaid", "mailchimp", "slack_app", "mapbox",
                     "gitlab_runner_reg", "nvidia", "do_oauth", "heroku_new", "sourcegraph", "apify", "ngrok",
                     "easypost", "postmark", "heroku_uuid"])
    tok = {
        "gho": lambda: "gho_" + _s(r, AN, 36),
        "ghu": lambda: "ghu_" + _s(r, AN, 36),
        "fly": lambda: "fm2_" + _s(r, B64, r.randint(120, 180)),
        "bitbucket": lambda: "ATBB" + _s(r, AN, 32),
        "flutterwave": lambda: "FLWSECK-" + _s(r, HEX, 32) + "-X",
        "plaid": lambda: "access-production-" + u(),
        "mailchimp": lambda: _s(r, HEX, 32) + "-us%d" % r.randint(1, 21),
        "slack_app": lambda: "xapp-1-A%s-%s-%s" % (_s(r, UP + D, 10), _d(r, 13), _s(r, HEX, 64)),
        "mapbox": lambda: "sk.%s.%s" % (_b64u('{"u":"%s","a":"%s"}' % (_s(r, LOW, 8), _s(r, LOW + D, 25))),
                                        _s(r, B64URL, 22)),
        "gitlab_runner_reg": lambda: "GR1348941" + _s(r, AN + "_-", 20),
        "nvidia": lambda: "nvapi-" + _s(r, AN + "_-", 64),
        "do_oauth": lambda: "doo_v1_" + _s(r, HEX, 64),
        "heroku_new": lambda: "HRKU-AA" + _s(r, AN + "_-", 58),
        "sourcegraph": lambda: "sgp_" + _s(r, HEX, 16) + "_" + _s(r, HEX, 40),
        "apify": lambda: "apify_api_" + _s(r, AN, 36),
        "ngrok": lambda: "2" + _s(r, AN, 26) + "_" + _s(r, AN, 21),
        "easypost": lambda: "EZAK" + _s(r, HEX, 54),
        "postmark": u,
        "heroku_uuid": u,
    }[name]()
    return name, tok


def i_api_key(r, doc, m):
    t = _tok(r, r.randint(24, 40))
    pw = _pw(r)
    form = r.choice([
        "fix_logon", "gha_mask", "ado_setvar", "teamcity", "cdk", "az_sp", "kaggle", "hadoop_s3a", "hive_site",
        "spark_defaults", "trino", "hdbuserstore", "sqlplus", "db2", "monit_mail", "monit_httpd", "mbsync",
        "chrome_csv", "lastpass_csv", "keycloak_secret", "kong", "shadowsocks", "three_proxy", "poetry",
        "bundler", "deno", "bunfig", "gitlab_rb", "cfml", "jinja", "q_hopen", "mumps", "jcl", "rexx", "forth",
        "lean", "ballerina", "chapel", "pony", "hare", "io", "janet", "fennel", "red", "servicebus",
        "provider", "provider", "provider", "provider", "prose"])
    if form == "prose":
        _prose(r, doc, pw, "api_key", "prose", "password")
        return
    if form == "provider":
        name, tok = _provider(r)
        where = r.choice(["env", "gha_env", "header", "node_inspect", "toml"])
        var = {"gho": "GH_TOKEN", "ghu": "GITHUB_USER_TOKEN", "bitbucket": "BITBUCKET_APP_PASSWORD",
               "flutterwave": "FLW_SECRET_KEY", "plaid": "PLAID_ACCESS_TOKEN", "mailchimp": "MAILCHIMP_API_KEY",
               "slack_app": "SLACK_APP_TOKEN", "mapbox": "MAPBOX_SECRET_TOKEN", "gitlab_runner_reg": "REGISTRATION_TOKEN",
               "nvidia": "NGC_API_KEY", "do_oauth": "DIGITALOCEAN_ACCESS_TOKEN", "heroku_new": "HEROKU_API_KEY",
               "sourcegraph": "SRC_ACCESS_TOKEN", "apify": "APIFY_TOKEN", "ngrok": "NGROK_AUTHTOKEN",
               "easypost": "EASYPOST_API_KEY"}.get(name, "")
        if name == "fly":
            lead, tail = {"env": ("FLY_API_TOKEN=\"FlyV1 ", "\"\n"),
                          "gha_env": ("2026-12-07T04:31:02.1184412Z   FLY_API_TOKEN: FlyV1 ", "\n"),
                          "header": ("Authorization: FlyV1 ", "\n"),
                          "node_inspect": ("{ flyToken: 'FlyV1 ", "' }\n"),
                          "toml": ("fly_token = \"FlyV1 ", "\"\n")}[where]
        elif name == "postmark":
            lead, tail = {"env": ("POSTMARK_SERVER_TOKEN=", "\n"),
                          "gha_env": ("2026-12-07T04:31:02.1184412Z   POSTMARK_SERVER_TOKEN: ", "\n"),
                          "header": ("X-Postmark-Server-Token: ", "\n"),
                          "node_inspect": ("{ postmarkServerToken: '", "' }\n"),
                          "toml": ("postmark_server_token = \"", "\"\n")}[where]
        elif name == "heroku_uuid":
            lead, tail = {"env": ("HEROKU_API_KEY=", "\n"),
                          "gha_env": ("2026-12-07T04:31:02.1184412Z   HEROKU_API_KEY: ", "\n"),
                          "header": ("Authorization: Bearer ", "\nAccept: application/vnd.heroku+json; version=3\n"),
                          "node_inspect": ("{ herokuApiKey: '", "' }\n"),
                          "toml": ("heroku_api_key = \"", "\"\n")}[where]
        else:
            lead, tail = {"env": ("%s=" % var, "\n"),
                          "gha_env": ("2026-12-07T04:31:02.1184412Z   %s: " % var, "\n"),
                          "header": ("Authorization: Bearer ", "\n"),
                          "node_inspect": ("{ service: '%s', token: '" % name, "' }\n"),
                          "toml": ("[%s]\ntoken = \"" % name, "\"\n")}[where]
        _put(doc, lead, tok, "api_key", "provider_%s_%s" % (name, where), tail)
        return
    if form == "az_sp":
        sp = _s(r, AN, 3) + "8Q~" + _s(r, AN + "~._-", 34)
        doc.t("{\n  \"appId\": \"")
        doc.look(str(uuid.UUID(int=r.getrandbits(128), version=4)), "azure_app_id")
        doc.t("\",\n  \"displayName\": \"gh-deploy\",\n  \"password\": \"")
        doc.item(sp, "api_key", "t_az_sp")
        doc.t("\",\n  \"tenant\": \"")
        doc.look(str(uuid.UUID(int=r.getrandbits(128), version=4)), "azure_tenant_id")
        doc.t("\"\n}\n")
        return
    aws_secret = _s(r, AN + "/+", 40)
    lead, v, tail = {
        "fix_logon": ("8=FIX.4.4|9=%d|35=A|34=1|49=ACME-OMS|56=BRKR|52=20261207-04:31:00.%03d|98=0|108=30|553=acme_trader|554="
                      % (r.randint(90, 140), r.randint(0, 999)), pw, "|10=%03d|\n" % r.randint(0, 255)),
        "gha_mask": ("2026-12-07T04:31:02.4471234Z ::add-mask::", t, "\n"),
        "ado_setvar": ("##vso[task.setvariable variable=dbPassword;issecret=true]", pw, "\n"),
        "teamcity": ("##teamcity[setParameter name='env.NEXUS_PASSWORD' value='", pw, "']\n"),
        "cdk": ("  credentials: rds.Credentials.fromPassword('app', SecretValue.unsafePlainText('", pw, "')),\n"),
        "kaggle": ("{\"username\":\"tou.vang\",\"key\":\"", _s(r, HEX, 32), "\"}\n"),
        "hadoop_s3a": ("<property>\n  <name>fs.s3a.secret.key</name>\n  <value>", aws_secret, "</value>\n</property>\n"),
        "hive_site": ("<property>\n  <name>javax.jdo.option.ConnectionPassword</name>\n  <value>", pw, "</value>\n</property>\n"),
        "spark_defaults": ("spark.hadoop.fs.s3a.secret.key       ", aws_secret, "\n"),
        "trino": ("connection-url=jdbc:postgresql://pg.example.net:5432/sales\nconnection-user=trino\nconnection-password=", pw, "\n"),
        "hdbuserstore": ("hdbuserstore SET BACKUPKEY hana01.example.net:30015 SYSTEM ", pw, "\n"),
        "sqlplus": ("$ sqlplus system/", pw, "@//db01.example.net:1521/ORCLPDB1\n"),
        "db2": ("db2 connect to SAMPLE user db2inst1 using ", pw, "\n"),
        "monit_mail": ("set mailserver smtp.example.net port 587\n    username \"alerts\" password \"", pw, "\"\n    using tls\n"),
        "monit_httpd": ("set httpd port 2812 and\n    use address localhost\n    allow admin:", pw, "\n"),
        "mbsync": ("IMAPAccount work\nHost imap.example.net\nUser kalani\nPass ", pw, "\nTLSType IMAPS\n"),
        "chrome_csv": ("name,url,username,password,note\nintranet.example.net,https://intranet.example.net/login,kalani,", pw, ",\n"),
        "lastpass_csv": ("url,username,password,totp,extra,name,grouping,fav\nhttps://vpn.example.net,ops,", pw, ",,,VPN,Infra,0\n"),
        "keycloak_secret": ("    {\n      \"clientId\": \"billing-api\",\n      \"secret\": \"", _s(r, AN, 32), "\",\n"),
        "kong": ("consumers:\n- username: mobile-app\n  keyauth_credentials:\n  - key: ", t, "\n"),
        "shadowsocks": ("{\"server\":\"ss.example.net\",\"server_port\":8388,\"password\":\"", pw, "\",\"method\":\"aes-256-gcm\"}\n"),
        "three_proxy": ("users admin:CL:", pw, "\nauth strong\n"),
        "poetry": ("poetry config http-basic.internal deploy ", pw, "\n"),
        "bundler": ("BUNDLE_GEMS__CONTRIBSYS__COM=ops:", _s(r, HEX, 8) + _s(r, HEX, 24), "\n"),
        "deno": ("DENO_AUTH_TOKENS=", t, "@deno.example.net\n"),
        "bunfig": ("[install.scopes]\nacme = { token = \"", t, "\", url = \"https://npm.example.net/\" }\n"),
        "gitlab_rb": ("gitlab_rails['smtp_password'] = \"", pw, "\"\n"),
        "cfml": ("<cfset application.dsnPassword = \"", pw, "\">\n"),
        "jinja": ("{% set api_key = \"", t, "\" %}\n"),
        "q_hopen": ("h:hopen `:tp.example.net:5010:feed:", pw.rstrip("~^#*+!-_") or pw, "\n"),
        "mumps": (" S ^CONFIG(\"SMTP\",\"PASSWORD\")=\"", pw, "\"\n"),
        "jcl": ("//NIGHTLY  JOB (ACCT),'BATCH',CLASS=A,USER=BATCH01,PASSWORD=", _s(r, UP, 3) + _d(r, 2) + _s(r, UP, 3), "\n"),
        "rexx": ("/* REXX */\npassword = '", pw, "'\n"),
        "forth": (": api-key ( -- addr u ) s\" ", t, "\" ;\n"),
        "lean": ("def apiKey : String := \"", t, "\"\n"),
        "ballerina": ("configurable string apiKey = \"", t, "\";\n"),
        "chapel": ("config const apiKey = \"", t, "\";\n"),
        "pony": ("    let api_key: String = \"", t, "\"\n"),
        "hare": ("const api_key: str = \"", t, "\";\n"),
        "io": ("apiKey := \"", t, "\"\n"),
        "janet": ("(def api-key \"", t, "\")\n"),
        "fennel": ("(local api-key \"", t, "\")\n"),
        "red": ("api-key: \"", t, "\"\n"),
        "servicebus": ("Endpoint=sb://orders.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=",
                       base64.b64encode(bytes(r.randint(0, 255) for _ in range(32))).decode(), "\n"),
    }[form]
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    j = _jwt(r)
    form = r.choice(["stomp", "socketio", "graphql_ws", "cfhttp", "ado_setvar", "gha_log", "jinja", "node_inspect",
                     "py_repr", "discord", "prose"])
    if form == "prose":
        _prose(r, doc, j, "jwt", "prose", "token")
        return
    lead, tail = {
        "stomp": ("CONNECT\naccept-version:1.2\nhost:broker.example.net\nlogin:web\npasscode:", "\n\n^@\n"),
        "socketio": ("40{\"token\":\"", "\"}\n"),
        "graphql_ws": ("{\"type\":\"connection_init\",\"payload\":{\"Authorization\":\"Bearer ", "\"}}\n"),
        "cfhttp": ("<cfhttpparam type=\"header\" name=\"Authorization\" value=\"Bearer ", "\">\n"),
        "ado_setvar": ("##vso[task.setvariable variable=accessToken;issecret=true]", "\n"),
        "gha_log": ("2026-12-07T04:31:05.0023118Z   ID_TOKEN: ", "\n"),
        "jinja": ("{% set bearer = \"", "\" %}\n"),
        "node_inspect": ("{\n  headers: { authorization: 'Bearer ", "' },\n  timeout: 5000\n}\n"),
        "py_repr": ("Session(user_id=%d, access_token='" % r.randint(1, 99999), "', scopes=['read'])\n"),
        "discord": ("[07-Dec-26 04:%02d] wanjiru\nhere's the token " % r.randint(0, 59), "\n\n"),
    }[form]
    _put(doc, lead, j, "jwt", form, tail)


def i_private_key(r, doc, m):
    kind = r.choice(["", "RSA ", "EC ", "OPENSSH "])
    lines = _pem(r, kind)
    form = r.choice(["gha_log", "rsyslog", "pg_escape", "confluence", "jira_adf", "docx", "pdf_tj", "compose_config",
                     "jinja_block", "ahk_continuation", "bbcode", "prose"])
    if form == "gha_log":
        v = "\n".join(("" if k == 0 else "2026-12-07T04:31:03.%07dZ " % (1234 + 9000 * k + r.randint(0, 999))) + ln
                      for k, ln in enumerate(lines))
        lead, tail = "2026-12-07T04:31:03.0001234Z ", "\n2026-12-07T04:31:03.9981234Z ##[endgroup]\n"
    elif form == "rsyslog":
        v = "#012".join(lines)
        lead, tail = "Dec  7 04:31:02 gw01 deploy-agent[%d]: loaded key " % r.randint(100, 99999), "#012\n"
    elif form == "pg_escape":
        v = "\\n".join(lines)
        lead, tail = "INSERT INTO tls_keys (host, pem) VALUES ('mx1', E'", "');\n"
    elif form == "confluence":
        v = "\n".join(lines)
        lead = ("<ac:structured-macro ac:name=\"code\" ac:schema-version=\"1\"><ac:parameter ac:name=\"language\">"
                "text</ac:parameter><ac:plain-text-body><![CDATA[")
        tail = "]]></ac:plain-text-body></ac:structured-macro>\n"
    elif form == "jira_adf":
        v = "\\n".join(lines)
        lead = "{\"type\":\"codeBlock\",\"attrs\":{\"language\":\"text\"},\"content\":[{\"type\":\"text\",\"text\":\""
        tail = "\"}]}\n"
    elif form == "docx":
        v = "</w:t><w:br/><w:t>".join(lines)
        lead, tail = "<w:r><w:rPr><w:rFonts w:ascii=\"Consolas\"/></w:rPr><w:t>", "</w:t></w:r>\n"
    elif form == "pdf_tj":
        v = ") Tj T*\n(".join(lines)
        lead, tail = "BT /F2 7 Tf 9 TL 56 640 Td\n(", ") Tj T*\nET\n"
    elif form == "compose_config":
        v = "\n        ".join(lines)
        lead, tail = "configs:\n  tls_key:\n    content: |\n        ", "\n"
    elif form == "jinja_block":
        v = "\n".join(lines)
        lead, tail = "{% set tls_key %}\n", "\n{% endset %}\n"
    elif form == "ahk_continuation":
        v = "\n".join(lines)
        lead, tail = "SigningKey =\n(\n", "\n)\n"
    elif form == "bbcode":
        v = "\n".join(lines)
        lead, tail = "here is what the installer wrote:\n[code]\n", "\n[/code]\n"
    else:
        lang = r.choice(sorted(PROSE))
        p_lead, p_tail = PROSE[lang].split("{}")
        lead, v, tail = p_lead + "key:\n", "\n".join(lines), "\n" + p_tail + "\n"
        form = "prose_" + lang
    _put(doc, lead, v, "private_key", "%s_%s" % (form, kind.strip().lower() or "pkcs8"), tail)


def i_url(r, doc, m):
    pw = _url_pw(r)
    form = r.choice(["telnet", "afp", "davs", "hive", "trino", "presto", "oracle_cx", "mssql_pyodbc", "firebird",
                     "db2", "hana", "influxdb", "cassandra", "neon", "gha_clone", "bbcode_url", "py_repr",
                     "node_inspect", "prose"])
    if form == "neon":
        pw = "npg_" + _s(r, AN, 12)
    if form == "prose":
        lang = r.choice(sorted(PROSE))
        lead, tail = PROSE[lang].split("{}")
        _put(doc, lead + "davs://kalani:", pw, "url_credentials", "prose_" + lang,
             "@files.example.net/remote.php/webdav " + tail + "\n")
        return
    lead, tail = {
        "telnet": ("telnet://admin:", "@pdu-rack4.example.net:23\n"),
        "afp": ("open afp://design:", "@nas.example.net/Projects\n"),
        "davs": ("davs://kalani:", "@files.example.net/remote.php/webdav\n"),
        "hive": ("SQLALCHEMY_URI = \"hive://etl:", "@hive.example.net:10000/default\"\n"),
        "trino": ("engine = create_engine(\"trino://analyst:", "@trino.example.net:443/hive\")\n"),
        "presto": ("presto_uri: presto://report:", "@presto.example.net:8080/hive/default\n"),
        "oracle_cx": ("DATABASE_URL=oracle+cx_oracle://scott:", "@db01.example.net:1521/?service_name=ORCLPDB1\n"),
        "mssql_pyodbc": ("url = \"mssql+pyodbc://sa:", "@sql01.example.net:1433/erp?driver=ODBC+Driver+18+for+SQL+Server\"\n"),
        "firebird": ("firebird+fdb://SYSDBA:", "@fb.example.net:3050//data/erp.fdb\n"),
        "db2": ("db2+ibm_db://db2inst1:", "@db2.example.net:50000/SAMPLE\n"),
        "hana": ("hana://SYSTEM:", "@hana01.example.net:30015\n"),
        "influxdb": ("  urls = [\"influxdb://telegraf:", "@influx.example.net:8086/metrics\"]\n"),
        "cassandra": ("CASSANDRA_URL=cassandra://app:", "@cass1.example.net:9042/orders\n"),
        "neon": ("DATABASE_URL=postgresql://neondb_owner:", "@ep-cool-darkness-a1b2c3d4.eu-central-1.aws.neon.tech/neondb?sslmode=require\n"),
        "gha_clone": ("2026-12-07T04:31:01.7712345Z [command]/usr/bin/git remote add origin https://ci-bot:", "@git.example.net/acme/app.git\n"),
        "bbcode_url": ("[url=https://review:", "@staging.example.net/]staging[/url]\n"),
        "py_repr": ("Settings(database_url='mysql+aiomysql://shop:", "@db.example.net:3306/shop', debug=False)\n"),
        "node_inspect": ("{ amqpUrl: 'amqps://worker:", "@mq.example.net:5671/prod' }\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

CARD_LIKE = "23456"


def _innocent(r, m, make):
    """A digit-only look-alike of 12 to 19 digits that begins like a card is
    drawn again until it fails Luhn: never a card number by accident."""
    while True:
        s = make()
        digits = "".join(c for c in s if c.isdigit())
        if not (12 <= len(digits) <= 19 and digits[0] in CARD_LIKE and m.luhn_ok(digits)):
            return s


def _digit_runs(s):
    run = ""
    for c in s + " ":
        if c.isdigit():
            run += c
        else:
            if run:
                yield run
            run = ""


def _filetime(r):
    t = r.randint(1_700_000_000, 1_800_000_000)
    return "%d" % ((t + 11644473600) * 10_000_000 + r.randint(0, 9_999_999))


def _ticks(r):
    t = r.randint(1_700_000_000, 1_800_000_000)
    return "%d" % ((t + 62135596800) * 10_000_000 + r.randint(0, 9_999_999))


def _with_luhn(m, body):
    return body + m.luhn_digit(body)


def _kid(r, m):
    body = _d(r, r.randint(6, 10))
    return _with_luhn(m, body)


def _sedol(r):
    chars = "0123456789BCDFGHJKLMNPQRSTVWXYZ"
    body = r.choice("BCDFGHJ0123456789") + "".join(r.choice(chars) for _ in range(5))
    w = [1, 3, 1, 7, 3, 9]
    total = sum(int(c, 36) * k for c, k in zip(body, w))
    return body + str((10 - total % 10) % 10)


def i_look(r, doc, m):
    q = r.randint
    hexid = lambda n: _s(r, HEX, n)
    srt_at = q(0, 3000)
    kind = r.choice([
        "metar", "adsb_sbs", "inchikey", "smiles", "ec_number", "mesh_tree", "gene_locus", "hgvs", "rsid", "uniprot",
        "fastq_qual", "dicom_uid", "edgar_accession", "cik", "sedol", "wkn", "isrc", "iswc", "asin", "amazon_order",
        "paypal_txn", "steam_id64", "xuid", "filetime", "dotnet_ticks", "gcp_trace", "jaeger", "xray", "datadog_trace",
        "s2_cell", "h3_index", "plus_code", "mgrs", "what3words", "maidenhead", "tai64n", "gerrit_change_id", "purl",
        "cpe", "ghsa", "tf_lock_zh", "gradle_aar", "kube_context", "jdbc_thin", "gmaps_at", "mastodon_url", "siren",
        "no_orgnr", "se_orgnr", "abn", "cnpj", "gstin", "be_ogm", "no_kid", "esim_eid", "meid", "apple_team",
        "kb_number", "iso_duration", "cron", "fen", "iso6709", "ismn", "library_barcode", "dotnet_strong_name",
        "pdf_xref", "docx_rsid", "dhcpv6_duid", "onion", "ssh_signature", "age_file", "x509_crl", "pgp_signature",
        "srt_timing", "fix_exec"])
    if kind in ("ssh_signature", "age_file", "x509_crl", "pgp_signature"):
        label = {"ssh_signature": "SSH SIGNATURE", "age_file": "AGE ENCRYPTED FILE", "x509_crl": "X509 CRL",
                 "pgp_signature": "PGP SIGNATURE"}[kind]
        body = "\n".join(_s(r, B64, 64) for _ in range(q(2, 5))) + "\n" + _s(r, B64, q(8, 40)) + "="
        if kind == "pgp_signature":
            body = "\n" + body + "\n=" + _s(r, B64, 4)
        doc.t(r.choice(["", "signature:\n", "-- \n"]))
        doc.look("-----BEGIN %s-----\n%s\n-----END %s-----" % (label, body, label), kind)
        doc.t("\n")
        return
    lead, v, tail = {
        "metar": ("", "METAR %s %02d%02d%02dZ %03d%02dKT 9999 FEW0%02d %02d/M%02d Q10%02d NOSIG=" % (
            r.choice(["EDDF", "LFPG", "NTAA", "NWWW", "FMEE", "TNCC", "FZAA"]), q(1, 28), q(0, 23), r.choice([0, 20, 50]),
            q(0, 36) * 10, q(2, 30), q(10, 50), q(0, 30), q(0, 5), q(0, 30)), "\n"),
        "adsb_sbs": ("", "MSG,3,1,1,%s,1,2026/12/07,04:%02d:%02d.%03d,2026/12/07,04:%02d:%02d.%03d,,%d,,,%d.%04d,%d.%04d,,,0,0,0,0" % (
            _s(r, UHEX, 6), q(0, 59), q(0, 59), q(0, 999), q(0, 59), q(0, 59), q(0, 999), q(100, 410) * 100,
            q(-60, 60), q(0, 9999), q(-170, 170), q(0, 9999)), "\n"),
        "inchikey": ("InChIKey=", "%s-%s-%s" % (_s(r, UP, 14), _s(r, UP, 10), r.choice("NMO")), "\n"),
        "smiles": ("SMILES: ", r.choice(["CC(=O)OC1=CC=CC=C1C(=O)O", "CN1C=NC2=C1C(=O)N(C(=O)N2C)C",
                                         "C1=CC=C(C=C1)C=O", "CC(C)CC1=CC=C(C=C1)C(C)C(=O)O",
                                         "O=C(O)CC(O)(CC(=O)O)C(=O)O", "C[C@@H](N)C(=O)O"]), "\n"),
        "ec_number": ("Enzyme class EC ", "%d.%d.%d.%d" % (q(1, 7), q(1, 20), q(1, 30), q(1, 200)), "\n"),
        "mesh_tree": ("MeSH tree number ", "%s%02d.%03d.%03d.%03d" % (r.choice("ABCDFG"), q(1, 23), q(1, 999), q(1, 999),
                                                                   q(1, 999)), "\n"),
        "gene_locus": ("locus ", "chr%s:%s-%s" % (r.choice([str(q(1, 22)), "X"]), "{:,}".format(q(1_000_000, 150_000_000)),
                                               "{:,}".format(q(150_000_001, 190_000_000))), "\n"),
        "hgvs": ("variant ", "NM_%06d.%d:c.%d%s>%s" % (q(1, 999999), q(1, 9), q(1, 9999), r.choice("ACGT"), r.choice("ACGT")), "\n"),
        "rsid": ("dbSNP ", "rs%d" % q(1000, 999_999_999), "\n"),
        "uniprot": ("UniProtKB ", "%s%d%s%d" % (r.choice("OPQ"), q(0, 9), _s(r, UP + D, 3), q(0, 9)), "\n"),
        "fastq_qual": ("@SRR%d.%d\n%s\n+\n" % (q(1000000, 9999999), q(1, 99999), _s(r, "ACGT", 60)),
                       "".join(chr(q(35, 74)) for _ in range(60)), "\n"),
        "dicom_uid": ("(0020,000D) UI [", "1.2.826.0.1.3680043.8.498." + _innocent(r, m, lambda: "%d" % q(10 ** 15, 10 ** 20)), "]\n"),
        "edgar_accession": ("Accession Number: ", "%010d-%02d-%06d" % (q(1, 2_000_000), q(20, 26), q(1, 999999)), "\n"),
        "cik": ("CIK ", "%010d" % q(1, 2_000_000), "\n"),
        "sedol": ("SEDOL ", _sedol(r), "\n"),
        "wkn": ("WKN ", r.choice([_s(r, "ABCDEFGHJKLMNPRSTUVWXYZ0123456789", 6), _d(r, 6)]), "\n"),
        "isrc": ("ISRC ", "%s%s%02d%05d" % (r.choice(["US", "GB", "FR", "JM"]), _s(r, UP + D, 3), q(0, 26), q(0, 99999)), "\n"),
        "iswc": ("ISWC ", "T-%03d.%03d.%03d-%d" % (q(0, 999), q(0, 999), q(0, 999), q(0, 9)), "\n"),
        "asin": ("ASIN: ", "B0" + _s(r, UP + D, 8), "\n"),
        "amazon_order": ("Order # ", "%03d-%07d-%07d" % (q(100, 114), q(0, 9999999), q(0, 9999999)), "\n"),
        "paypal_txn": ("Transaction ID: ", _s(r, UP + D, 17), "\n"),
        "steam_id64": ("\"steamid\": \"", "7656119%010d" % q(0, 9_999_999_999), "\",\n"),
        "xuid": ("XUID: ", _innocent(r, m, lambda: "2533274%09d" % q(0, 999_999_999)), "\n"),
        "filetime": ("LastLogonTimestamp: ", _innocent(r, m, lambda: _filetime(r)), "\n"),
        "dotnet_ticks": ("\"CreatedTicks\": ", _innocent(r, m, lambda: _ticks(r)), ",\n"),
        "gcp_trace": ("X-Cloud-Trace-Context: ", "%s/%s;o=1" % (hexid(32), _innocent(r, m, lambda: "%d" % q(10 ** 17, 2 ** 64 - 1))), "\n"),
        "jaeger": ("uber-trace-id: ", "%s:%s:0:1" % (hexid(32), hexid(16)), "\n"),
        "xray": ("X-Amzn-Trace-Id: ", "Root=1-%s-%s;Parent=%s;Sampled=1" % (hexid(8), hexid(24), hexid(16)), "\n"),
        "datadog_trace": ("x-datadog-trace-id: ", _innocent(r, m, lambda: "%d" % q(10 ** 17, 2 ** 63 - 1)), "\n"),
        "s2_cell": ("\"s2_cell_id\": ", _innocent(r, m, lambda: "%d" % q(2 ** 62, 2 ** 63 - 1)), ",\n"),
        "h3_index": ("\"h3\": \"", "8%x%s" % (q(1, 15), hexid(13)), "\",\n"),
        "plus_code": ("Plus code ", "%s%s+%s" % (_s(r, "23456789CFGHJMPQRVWX", 4), _s(r, "23456789CFGHJMPQRVWX", 4),
                                                 _s(r, "23456789CFGHJMPQRVWX", 2)), "\n"),
        "mgrs": ("MGRS ", "%d%s %s %05d %05d" % (q(1, 60), r.choice("CDEFGHJKLMNPQRSTUVWX"), _s(r, "ABCDEFGHJKLMNPQRSTUVWXYZ", 2),
                                                 q(0, 99999), q(0, 99999)), "\n"),
        "what3words": ("meet at ", "///%s.%s.%s" % (r.choice(["filled", "index", "river", "lamp"]),
                                                    r.choice(["count", "home", "grape", "slide"]),
                                                    r.choice(["soap", "tower", "mild", "orbit"])), "\n"),
        "maidenhead": ("QTH locator ", "%s%s%d%d%s" % (r.choice("ABCDEFGHIJKLMNOPQR"), r.choice("ABCDEFGHIJKLMNOPQR"), q(0, 9),
                                                        q(0, 9), _s(r, "abcdefghijklmnopqrstuvwx", 2)), "\n"),
        "tai64n": ("", "@4000000%s%s" % (hexid(9), hexid(8)), " run: sshd: (pid %d) 3600s\n" % q(100, 99999)),
        "gerrit_change_id": ("\nChange-Id: ", "I" + hexid(40), "\n"),
        "purl": ("purl: ", r.choice(["pkg:npm/%%40angular/core@17.%d.%d" % (q(0, 3), q(0, 9)),
                                     "pkg:maven/org.apache.logging.log4j/log4j-core@2.%d.%d" % (q(17, 24), q(0, 3)),
                                     "pkg:pypi/requests@2.%d.%d" % (q(25, 32), q(0, 3)),
                                     "pkg:golang/github.com/gorilla/mux@v1.8.%d" % q(0, 3)]), "\n"),
        "cpe": ("cpe: ", "cpe:2.3:a:%s:%d.%d.%d:*:*:*:*:*:*:*" % (r.choice(["apache:http_server", "openbsd:openssh",
                                                                           "nginx:nginx", "haxx:curl"]),
                                                                  q(1, 9), q(0, 30), q(0, 60)), "\n"),
        "ghsa": ("Advisory ", "GHSA-%s-%s-%s" % tuple(_s(r, "23456789cfghjmpqrvwx", 4) for _ in range(3)), "\n"),
        "tf_lock_zh": ("    \"zh:", hexid(64), "\",\n"),
        "gradle_aar": ("    implementation '", "com.android.support:appcompat-v7:%d.%d.%d@aar" % (q(24, 28), q(0, 1), q(0, 9)), "'\n"),
        "kube_context": ("current-context: ", r.choice(["kubernetes-admin@kubernetes", "admin@k3s-prod",
                                                        "oidc@eks-staging", "kind@kind-ci"]), "\n"),
        "jdbc_thin": ("spring.datasource.url=", r.choice(["jdbc:oracle:thin:@//db-prod.example.net:1521/ORCLPDB1",
                                                          "jdbc:oracle:thin:@db-prod.example.net:1521:ORCL"]), "\n"),
        "gmaps_at": ("map: ", "https://www.google.com/maps/@%d.%07d,%d.%07d,%dz" % (q(-60, 60), q(0, 9999999), q(-170, 170),
                                                                                   q(0, 9999999), q(3, 19)), "\n"),
        "mastodon_url": ("profile: ", "https://social.example.org/@%s" % r.choice(["ama_owusu", "lieve", "tou"]), "\n"),
        "siren": ("SIREN ", "%s %s %s" % (_d(r, 3), _d(r, 3), _d(r, 3)), "\n"),
        "no_orgnr": ("Org.nr. ", "9%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3)), " MVA\n"),
        "se_orgnr": ("Org.nr ", "55%s-%s" % (_d(r, 4), _d(r, 4)), "\n"),
        "abn": ("ABN ", "%d %s %s %s" % (q(10, 99), _d(r, 3), _d(r, 3), _d(r, 3)), "\n"),
        "cnpj": ("CNPJ: ", "%s.%s.%s/0001-%s" % (_d(r, 2), _d(r, 3), _d(r, 3), _d(r, 2)), "\n"),
        "gstin": ("GSTIN: ", "%02d%s%s%s1Z%s" % (q(1, 37), _s(r, UP, 5), _d(r, 4), _s(r, UP, 1), _s(r, UP + D, 1)), "\n"),
        "be_ogm": ("Mededeling: ", "+++%s/%s/%s+++" % (_d(r, 3), _d(r, 4), _d(r, 5)), "\n"),
        "no_kid": ("KID: ", _kid(r, m), "\n"),
        "esim_eid": ("EID ", "89049032%s" % _d(r, 24), "\n"),
        "meid": ("MEID ", _s(r, "A" + UHEX[:10], 2) + _s(r, UHEX, 12), "\n"),
        "apple_team": ("DEVELOPMENT_TEAM = ", _s(r, UP + D, 10), ";\n"),
        "kb_number": ("Installed ", "KB50%s" % _d(r, 5), "\n"),
        "iso_duration": ("\"retention\": \"", "P%dY%dM%dDT%dH%dM" % (q(0, 9), q(0, 11), q(0, 30), q(0, 23), q(0, 59)), "\",\n"),
        "cron": ("", "%d %d * * %d" % (q(0, 59), q(0, 23), q(0, 6)), " /usr/local/bin/backup.sh\n"),
        "fen": ("[FEN \"", r.choice(["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                                     "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                                     "8/8/8/4k3/8/8/4K3/4R3 w - - 0 %d" % q(40, 90)]), "\"]\n"),
        "iso6709": ("<gml:pos>", "%+08.4f%+09.4f/" % (q(-8900, 8900) / 100.0, q(-17900, 17900) / 100.0), "</gml:pos>\n"),
        "ismn": ("ISMN ", "979-0-%s-%s-%d" % (_d(r, 4), _d(r, 4), q(0, 9)), "\n"),
        "library_barcode": ("Item barcode ", _innocent(r, m, lambda: "3%s" % _d(r, 13)), "\n"),
        "dotnet_strong_name": ("<Reference Include=\"", "System.Data.SQLite, Version=%d.%d.%d.%d, Culture=neutral, PublicKeyToken=%s" % (
            q(1, 9), q(0, 12), q(0, 120), q(0, 9), hexid(16)), "\" />\n"),
        "pdf_xref": ("", "%010d %05d n" % (q(10, 9_999_999), q(0, 2)), "\n"),
        "docx_rsid": ("<w:p w:rsidR=\"", _s(r, UHEX, 8), "\" w:rsidRDefault=\"%s\">\n" % _s(r, UHEX, 8)),
        "dhcpv6_duid": ("client-id ", "00:01:00:01:" + ":".join(_s(r, HEX, 2) for _ in range(10)), ";\n"),
        "onion": ("hidden service: ", _s(r, "abcdefghijklmnopqrstuvwxyz234567", 56) + ".onion", "\n"),
        "srt_timing": ("%d\n" % q(1, 400), "00:%02d:%02d,%03d --> 00:%02d:%02d,%03d" % (
            divmod(srt_at, 60) + (q(0, 999),) + divmod(srt_at + q(1, 5), 60) + (q(0, 999),)), "\n[music]\n\n"),
        "fix_exec": ("8=FIX.4.4|9=%d|35=8|" % q(150, 260),
                     "37=%d|11=ORD-%s|17=%s|52=20261207-04:%02d:%02d.%03d|55=%s|54=1|38=%d|44=%d.%02d" % (
                         q(10 ** 9, 10 ** 10), _d(r, 8), _s(r, UP + D, 12), q(0, 59), q(0, 59), q(0, 999),
                         r.choice(["VOD.L", "SAP.DE", "7203.T", "AAPL"]), q(1, 5000), q(1, 999), q(0, 99)),
                     "|10=%03d|\n" % q(0, 255)),
    }[kind]
    if any(12 <= len(run) <= 19 and run[0] in CARD_LIKE and m.luhn_ok(run) for run in _digit_runs(v)):
        return i_look(r, doc, m)  # a run of digits inside it would be a card number: draw another
    doc.t(lead)
    doc.look(v, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["\n", "\n\n", "--\n", "</w:p>\n", "ET\n", "[/quote]\n", "2026-12-07T04:31:09.0000001Z ##[endgroup]\n"]


def heldout16_doc(r, doc, m):
    """One text of the seventeenth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
