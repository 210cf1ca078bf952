"""The tenth held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout10`; not run on its own.

An eleventh template family, written and committed before any detector
change of the eighth round (the round that closes heldout9's misses),
from real-world formats and not from the detectors' code. The session
that wrote it knew heldout9's per-class figures as its brief named them
(api_key, credit_card, private_key and url_credentials recall; email and
ipv4 precision) and the detectors' source; only its per-class table is
looked at until the round's final measurement.

Surroundings that no other family writes: Zeek `conn.log` with its
`#fields` header, Suricata `eve.json`, Cisco ASA `%ASA-6-302013`,
Postfix `connect from`/`client=`, Dovecot `rip=`/`lip=`, OpenVPN
status, WireGuard `wg show` and `[Peer]`, `ss -tn` and `netstat`
output, `dig` answer sections, `/etc/hosts`, RADIUS
`Framed-IP-Address`, ISC dhcpd leases, `arp -a`, traceroute hops,
MongoDB JSON logs, PostgreSQL `connection received`, VPC flow logs,
CloudTrail `sourceIPAddress`, `X-Forwarded-For` chains, journald
export; configs in HOCON, Java `.properties`, .NET `appsettings.json`,
Windows `.reg`, supervisord, launchd plists, systemd `Environment=`,
HAProxy, `.pypirc`, `.gem/credentials`, pip `proxy`, Helm values, Docker
Compose `environment:` lists, ODBC connection strings, `.pgpass`,
PowerShell `ConvertTo-SecureString`; code in Elixir, Erlang, Clojure,
F#, OCaml, Nim, Zig, Crystal, Julia, R, MATLAB, Fortran, COBOL, Ada,
Delphi, Dart, Groovy, Tcl, AWK, Solidity-free Starlark and Jsonnet;
HTTP headers of API gateways (`Ocp-Apim-Subscription-Key`,
`x-goog-api-key`, `X-Vault-Token`, `X-RapidAPI-Key`, `apikey`);
tables as psql expanded records, psql aligned output, SQLite box
drawing, reStructuredText grid tables, Jira wiki tables, pandas and R
data-frame prints, semicolon CSV; vCard, iCalendar, SIP, EPC QR
payloads, SEPA `pain.001` XML, MT103 fields; prose in Welsh, Irish,
Basque, Galician, Maltese, Albanian, Estonian, Latvian, Lithuanian,
Georgian, Armenian, Azerbaijani, Uzbek, Kazakh, Mongolian, Nepali,
Sinhala, Burmese, Khmer, Amharic, Somali, Yoruba, Zulu, Afrikaans,
Tagalog, Malay, Samoan, Esperanto and Latin; phones of 22 countries no
family wrote (Lebanon, Jordan, Iraq, Algeria, Côte d'Ivoire, Cameroon,
Angola, Zambia, Nicaragua, El Salvador, Guatemala, Cuba, Haiti, Guyana,
Suriname, Papua New Guinea, Brunei, Timor-Leste, Greenland, French
Polynesia, Samoa, Tonga) and US numbers in vCard, SIP and JSON; card
brands no family named (Maestro, RuPay, Troy, Elo, Mastercard 2-series
in new places) and card data as PayPal NVP, ISO 8583 dumps, track-2
data; new secret shapes (provider tokens no family wrote: LangSmith,
Groq, xAI, Replicate, Figma, Contentful, Dynatrace, Buildkite,
CircleCI, Prefect, Sentry, Pulumi, New Relic, Square); PEM keys with
CRLF line ends, 76-column lines, in Java text blocks, Go raw strings,
Terraform heredocs, shell heredocs, JSON arrays of lines, PGP and DSA
private key blocks, base64 of a PEM in a Kubernetes Secret, PuTTY
`.ppk` files; URL credentials with an empty user, several hosts,
JSON-escaped slashes, percent-encoded users, `socks5h`, `mqtts`, `wss`,
`webdav`, an IPv6 host, in `.git-credentials`, in Markdown links and in
pip `proxy`; and look-alikes no family wrote (IMEIs and ICCIDs that pass
Luhn, SEPA creditor IDs and RF creditor references that pass mod 97,
LEIs, ISINs, retina image names `@2x`, CDN `pkg@version` URLs, shell
prompts `root@host`, `git@host:` remotes, Matrix IDs, Kerberos service
principals, Sentry DSNs with a public key only, GCP `private_key_id`,
`Idempotency-Key`, S3 object keys, Windows file versions, Chrome
user-agent versions, SNMP OIDs, Indonesian rupiah amounts, signed
coordinates, EINs, ZIP+4 codes, ISBN-10s, WWNs, PGP public blocks,
`ssh-ed25519` public keys, header-only PEM mentions).

It reuses only the value makers of `detect_corpus.py` (group4, luhn
digit) and the small ones of `detect_values.py`. Its texts are drawn
from their own seed (`detect_corpus.py` offsets the split's seed by
10010). It is the project's own, like the others.
"""
import base64

from detect_values import AN, D, HEX, UHEX, UP, _d, _nz, _put, _s, _seq, _ssn, _tok, with_check, family_doc, B64, B64URL, LOW, mod97, label_filler


def _iban(r):
    country, bban = r.choice([
        ("DE", lambda: _d(r, 18)),
        ("FR", lambda: _d(r, 10) + _s(r, UP + D, 11) + _d(r, 2)),
        ("GB", lambda: _s(r, UP, 4) + _d(r, 14)),
        ("IE", lambda: _s(r, UP, 4) + _d(r, 14)),
        ("NL", lambda: _s(r, UP, 4) + _d(r, 10)),
        ("BE", lambda: _d(r, 12)),
        ("AT", lambda: _d(r, 16)),
        ("CH", lambda: _d(r, 5) + _s(r, UP + D, 12)),
        ("ES", lambda: _d(r, 20)),
        ("PT", lambda: _d(r, 21)),
        ("IT", lambda: _s(r, UP, 1) + _d(r, 10) + _s(r, UP + D, 12)),
        ("PL", lambda: _d(r, 24)),
        ("SE", lambda: _d(r, 20)),
        ("EE", lambda: _d(r, 16)),
        ("LV", lambda: _s(r, UP, 4) + _s(r, UP + D, 13)),
        ("LT", lambda: _d(r, 16)),
        ("MT", lambda: _s(r, UP, 4) + _d(r, 5) + _s(r, UP + D, 18)),
        ("AL", lambda: _d(r, 8) + _s(r, UP + D, 16)),
        ("GE", lambda: _s(r, UP, 2) + _d(r, 16)),
        ("AZ", lambda: _s(r, UP, 4) + _s(r, UP + D, 20)),
        ("LB", lambda: _d(r, 4) + _s(r, UP + D, 20)),
        ("JO", lambda: _s(r, UP, 4) + _d(r, 4) + _s(r, UP + D, 18)),
        ("IQ", lambda: _s(r, UP, 4) + _d(r, 15)),
    ])
    return with_check(country, bban())


def _card(r, m):
    """A card of a brand no family named, with its Luhn digit."""
    kind = r.choice(["maestro", "maestro19", "rupay", "troy", "elo", "mc2", "visa", "mc", "amex"])
    prefix, n = {
        "maestro": (r.choice(["5018", "5020", "5038", "6304", "6759", "6761", "6763"]), 16),
        "maestro19": (r.choice(["5018", "6759", "6304"]), 19),
        "rupay": (r.choice(["6521", "6522", "6070", "6081", "8172"]), 16),
        "troy": ("9792", 16),
        "elo": (r.choice(["401178", "438935", "457631", "504175", "506699", "509048", "636297", "650031"]), 16),
        "mc2": (str(r.randint(2221, 2720)), 16),
        "visa": ("4", 16),
        "mc": (str(r.randint(51, 55)), 16),
        "amex": (r.choice(["34", "37"]), 15),
    }[kind]
    body = prefix + _d(r, n - 1 - len(prefix))
    return body + m.luhn_digit(body), kind


def _shown(r, c):
    if len(c) == 15:
        return "%s %s %s" % (c[:4], c[4:10], c[10:])
    if len(c) == 19 and r.random() < 0.5:
        return "%s %s" % (" ".join(c[i:i + 4] for i in range(0, 16, 4)), c[16:])
    sep = r.choice([" ", "-", "", "\u00a0"])
    return sep.join(c[i:i + 4] for i in range(0, len(c), 4))


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([5, 31, 37, 41, 45, 77, 85, 91, 102, 109, 121, 154, 177, 185, 190, 196, 201, 213]),
                            r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2a00:1450:%s:%s::%s" % (g(), g(), g()),
        lambda: "2606:4700:%s::%s:%s" % (g(), g(), g()),
        lambda: "2a03:2880:%s:%s:face:b00c:0:%s" % (g(), g(), g()),
        lambda: "2001:4860:%s:%s::%s" % (g(), g(), g()),
        lambda: "2400:cb00:%s:%s::%s:%s" % (g(), g(), g(), g()),
        lambda: "2a01:4f8:%s:%s::%s" % (g(), g(), g()),
        lambda: "2620:%s:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g(), g()),
        lambda: "2c0f:%s:%s::%s" % (g(), g(), g()),
    ])()


def _b64u(raw):
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _jwt(r):
    alg = r.choice(["RS256", "ES384", "HS256", "PS256"])
    head = '{"alg":"%s","typ":"%s"}' % (alg, r.choice(["JWT", "at+jwt", "dpop+jwt"]))
    body = '{"sub":"%s","iss":"https://auth.example.cy","iat":%d,"azp":"%s"}' % (
        _s(r, LOW + D, 12), r.randint(1_700_000_000, 1_900_000_000), _s(r, AN, 16))
    sig = {"RS256": 342, "ES384": 128, "HS256": 43, "PS256": 342}[alg]
    return "%s.%s.%s" % (_b64u(head), _b64u(body), _s(r, B64URL, sig))


def _pem_body(r, width):
    return [_s(r, B64, width) for _ in range(r.randint(6, 12))] + [_s(r, B64, r.randint(10, width - 4)) + "="]


# ------------------------------------------------------------------ items

def i_email(r, doc, m):
    e = "%s@%s" % (r.choice(["gwen.ap.rhys", "aoife.nic", "itziar", "xoan.p", "marija.b", "arben.k", "kadri",
                             "janis.o", "ruta.m", "nino.g", "anahit", "leyla", "dilshod", "aigerim", "bat-erdene",
                             "sujan.t", "nimal.p", "thiha", "sokha", "abebe.k", "hodan", "adebayo", "thandeka",
                             "pieter.v", "maricel", "siti.n", "Tavita", "esperanto-adm", "marcus.tullius",
                             "svc_billing", "ops-alerts+p1", "A.Kovacs"]),
                   r.choice(["enghraifft.cymru", "sampla.ie", "adibidea.eus", "exemplo.gal", "ezempju.mt",
                             "shembull.al", "naide.ee", "piemers.lv", "pavyzdys.lt", "magaliti.ge", "orinak.am",
                             "numune.az", "misol.uz", "myisal.kz", "jishee.mn", "udaharan.com.np", "udaharanaya.lk",
                             "example.com.mm", "example.com.kh", "mesalie.et",
                             "tusaale.so", "apeere.ng", "isibonelo.co.za", "voorbeeld.co.za", "halimbawa.ph",
                             "contoh.com.my", "faataitaiga.ws", "ekzemplo.org", "exemplum.museum", "mail.gov.example.lv",
                             "EXAMPLE.CY", "xn--80ak6aa92e.example"]))
    form = r.choice(["vcard", "ical_organizer", "ical_attendee", "postfix_from", "git_author", "mbox_from",
                     "reply_to", "psql_expanded", "psql_aligned", "sqlite_box", "rst_grid", "jira_table",
                     "pandas_print", "semicolon_csv", "elixir", "erlang", "clojure", "fsharp", "ocaml", "nim",
                     "julia", "r_lang", "cobol", "delphi", "dart", "tcl", "hocon", "properties", "reg_file",
                     "cy_prose", "ga_prose", "eu_prose", "mt_prose", "et_prose", "ka_prose", "hy_prose", "mn_prose",
                     "si_prose", "my_prose", "am_prose", "so_prose", "yo_prose", "zu_prose", "tl_prose", "eo_prose",
                     "la_prose", "journald", "cef_suser"])
    lead, tail = {
        "vcard": ("BEGIN:VCARD\nVERSION:4.0\nFN:Gwen ap Rhys\nEMAIL;TYPE=work:", "\nEND:VCARD\n"),
        "ical_organizer": ("BEGIN:VEVENT\nSUMMARY:Cyfarfod\nORGANIZER;CN=\"Aoife Nic\":mailto:", "\nEND:VEVENT\n"),
        "ical_attendee": ("ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:", "\n"),
        "postfix_from": ("Dec  6 10:02:11 mx1 postfix/qmgr[1187]: 4Ft1kQ0x2Fz9vK: from=<", ">, size=4312, nrcpt=1 (queue active)\n"),
        "git_author": ("commit %s\nAuthor: Itziar Etxeberria <" % _s(r, HEX, 40), ">\nDate:   Sun Dec 6 10:02:11 2026 +0100\n"),
        "mbox_from": ("From ", " Sun Dec  6 10:02:11 2026\nSubject: Re: faktura\n"),
        "reply_to": ("Reply-To: \"Marija B.\" <", ">\nX-Mailer: Thunderbird 128.5.0\n"),
        "psql_expanded": ("-[ RECORD 1 ]------------------\nid    | 4412\nname  | Arben Krasniqi\nemail | ", "\n"),
        "psql_aligned": ("  id  |     name      |          email\n------+---------------+---------------------------\n 4412 | Kadri Tamm    | ", "\n(1 row)\n"),
        "sqlite_box": ("│ 4412 │ Janis Ozols │ ", " │\n└──────┴─────────────┴──────────────────────┘\n"),
        "rst_grid": ("+--------+-------------------------+\n| Ruta M | ", " |\n+--------+-------------------------+\n"),
        "jira_table": ("||Owner||Contact||\n|Nino G.|[mailto:", "]|\n"),
        "pandas_print": ("         name                      email\n0   Anahit S.   ", "\n"),
        "semicolon_csv": ("Name;E-Mail;Ort\nLeyla Aliyeva;", ";Baku\n"),
        "elixir": ("config :app, Mailer, reply_to: \"", "\"\n"),
        "erlang": ("{admin_email, <<\"", "\">>}.\n"),
        "clojure": ("(def contact {:name \"Dilshod\" :email \"", "\"})\n"),
        "fsharp": ("let supportAddress = \"", "\"\n"),
        "ocaml": ("let owner_email = \"", "\"\n"),
        "nim": ("const alertTo = \"", "\"\n"),
        "julia": ("const NOTIFY = \"", "\"\n"),
        "r_lang": ("maintainer <- \"", "\"\n"),
        "cobol": ("       01 WS-EMAIL PIC X(40) VALUE '", "'.\n"),
        "delphi": ("const SupportMail = '", "';\n"),
        "dart": ("final String contactEmail = '", "';\n"),
        "tcl": ("set notify_addr \"", "\"\n"),
        "hocon": ("alerts {\n  recipient = \"", "\"\n}\n"),
        "properties": ("mail.smtp.from=", "\n"),
        "reg_file": ("[HKEY_CURRENT_USER\\Software\\Example\\Mail]\n\"Address\"=\"", "\"\n"),
        "cy_prose": ("Anfonwch e-bost at ", " os oes gennych gwestiwn.\n"),
        "ga_prose": ("Seol ríomhphost chuig ", " le do thoil.\n"),
        "eu_prose": ("Idatzi iezaguzu helbide honetara: ", ".\n"),
        "mt_prose": ("Ibgħatilna email fuq ", ".\n"),
        "et_prose": ("Kirjutage meile aadressil ", ".\n"),
        "ka_prose": ("მოგვწერეთ ელფოსტაზე: ", "\n"),
        "hy_prose": ("Գրեք մեզ էլ. փոստով՝ ", "\n"),
        "mn_prose": ("Имэйл хаяг: ", "\n"),
        "si_prose": ("ඊමේල් ලිපිනය: ", "\n"),
        "my_prose": ("အီးမေးလ်: ", "\n"),
        "am_prose": ("ኢሜይል: ", "\n"),
        "so_prose": ("Nagala soo xiriir iimaylka ", ".\n"),
        "yo_prose": ("Fi imeeli ranṣẹ si ", ".\n"),
        "zu_prose": ("Sithumelele i-imeyili ku-", ".\n"),
        "tl_prose": ("Mag-email sa ", " para sa tanong.\n"),
        "eo_prose": ("Skribu al ni retpoŝte: ", ".\n"),
        "la_prose": ("Epistulam electronicam mitte ad ", ".\n"),
        "journald": ("__REALTIME_TIMESTAMP=1796551331000000\nSYSLOG_IDENTIFIER=sendmail\nMESSAGE=queued mail for ", "\n\n"),
        "cef_suser": ("CEF:0|Example|MailGW|4.2|200|Message delivered|3|suser=", " act=deliver\n"),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    a, x, s = "%s%s" % (_nz(r), _d(r, 2)), "%s%s" % (_nz(r), _d(r, 2)), _d(r, 4)
    form = r.choice(["lb", "jo", "iq", "dz", "ci", "cm", "ao", "zm", "ni", "sv", "gt", "cu", "ht", "gy", "sr",
                     "pg", "bn", "tl", "gl", "pf", "ws", "to", "us_vcard", "us_sip", "us_json_msisdn",
                     "us_dotted_prefix1", "us_paren_nospace", "us_ext", "us_sqlite", "us_elixir", "us_twilio_log"])
    lead, p, tail = {
        "lb": ("Mobile: ", "+961 %s %s %s" % (r.choice(["3", "70", "71", "76", "81"]), _d(r, 3), _d(r, 3)), "\n"),
        "jo": ("الهاتف: ", "+962 7%s %s %s" % (r.choice("789"), _d(r, 3), _d(r, 4)), "\n"),
        "iq": ("موبايل: ", "+964 7%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 4)), "\n"),
        "dz": ("Portable : ", "+213 %s%s %s %s %s" % (r.choice("567"), _d(r, 2), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "ci": ("Cel : ", "+225 07 %s %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "cm": ("Tél : ", "+237 6 %s %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "ao": ("Telemóvel: ", "+244 9%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3)), "\n"),
        "zm": ("Cell: ", "+260 9%s %s %s" % (r.choice("567"), _d(r, 3), _d(r, 4)), "\n"),
        "ni": ("Celular: ", "+505 8%s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "sv": ("Cel.: ", "+503 7%s-%s" % (_d(r, 3), _d(r, 4)), "\n"),
        "gt": ("Tel.: ", "+502 5%s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "cu": ("Móvil: ", "+53 5 %s" % _d(r, 7), "\n"),
        "ht": ("Telefòn: ", "+509 3%s %s %s" % (_d(r, 1), _d(r, 2), _d(r, 4)), "\n"),
        "gy": ("Cell: ", "+592 6%s %s" % (_d(r, 2), _d(r, 4)), "\n"),
        "sr": ("Mobiel: ", "+597 8%s-%s" % (_d(r, 2), _d(r, 4)), "\n"),
        "pg": ("Mobile: ", "+675 7%s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "bn": ("Tel: ", "+673 8%s %s" % (_d(r, 2), _d(r, 4)), "\n"),
        "tl": ("Telemovel: ", "+670 7%s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "gl": ("Oqarasuaat: ", "+299 5%s %s %s" % (_d(r, 1), _d(r, 2), _d(r, 2)), "\n"),
        "pf": ("Tél. : ", "+689 87 %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "ws": ("Telefoni: ", "+685 7%s %s" % (_d(r, 1), _d(r, 5)), "\n"),
        "to": ("Telefoni: ", "+676 7%s %s" % (_d(r, 2), _d(r, 4)), "\n"),
        "us_vcard": ("BEGIN:VCARD\nVERSION:3.0\nTEL;TYPE=CELL:", "+1-%s-%s-%s" % (a, x, s), "\nEND:VCARD\n"),
        "us_sip": ("INVITE sip:", "+1%s%s%s" % (a, x, s), "@sip.example.net SIP/2.0\n"),
        "us_json_msisdn": ("{\"msisdn\":\"", "+1%s%s%s" % (a, x, s), "\",\"carrier\":\"T-Mobile\"}\n"),
        "us_dotted_prefix1": ("Call us: ", "1.%s.%s.%s" % (a, x, s), "\n"),
        "us_paren_nospace": ("Phone: ", "(%s)%s-%s" % (a, x, s), "\n"),
        "us_ext": ("Direct line ", "+1 %s-%s-%s" % (a, x, s), " ext. 214\n"),
        "us_sqlite": ("│ 17 │ front desk │ ", "+1 %s %s %s" % (a, x, s), " │\n"),
        "us_elixir": ("config :notify, oncall_phone: \"", "+1 (%s) %s-%s" % (a, x, s), "\"\n"),
        "us_twilio_log": ("2026-12-06 10:02:11 INFO twilio: sms queued to=", "+1%s%s%s" % (a, x, s), " status=queued\n"),
    }[form]
    _put(doc, lead, p, "phone", form, tail)


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["psql_expanded", "psql_aligned", "sqlite_box", "rst_grid", "jira_table", "pandas_print",
                     "r_dataframe", "semicolon_csv", "json_nested", "xml_element", "elixir", "erlang", "clojure",
                     "fsharp", "cobol", "julia", "w2_box", "form_1099", "es_us_prose", "ssn_last_known",
                     "properties", "hocon"])
    lead, v, tail = {
        "psql_expanded": ("-[ RECORD 3 ]-----------\nemployee | M. Okafor\nssn      | ", dashed, "\n"),
        "psql_aligned": (" emp_id |   name    |     ssn\n--------+-----------+-------------\n   1042 | M. Okafor | ", dashed, "\n"),
        "sqlite_box": ("┌────────┬─────────────┐\n│  name  │     ssn     │\n├────────┼─────────────┤\n│ Okafor │ ", dashed, " │\n"),
        "rst_grid": ("+-----------+-------------+\n| Name      | SSN         |\n+===========+=============+\n| M. Okafor | ", dashed, " |\n"),
        "jira_table": ("||Employee||SSN||\n|M. Okafor|", dashed, "|\n"),
        "pandas_print": ("        name          ssn\n0  M. Okafor  ", dashed, "\n"),
        "r_dataframe": ("       name         ssn\n1 M. Okafor ", dashed, "\n"),
        "semicolon_csv": ("Name;SSN;Abteilung\nM. Okafor;", dashed, ";Lohn\n"),
        "json_nested": ("{\"employee\":{\"name\":\"M. Okafor\",\"tax\":{\"ssn\":\"", dashed, "\"}}}\n"),
        "xml_element": ("<Employee><Name>M. Okafor</Name><SocialSecurityNumber>", dashed, "</SocialSecurityNumber></Employee>\n"),
        "elixir": ("%Employee{name: \"M. Okafor\", ssn: \"", dashed, "\"}\n"),
        "erlang": ("#employee{name = <<\"M. Okafor\">>, ssn = <<\"", dashed, "\">>}.\n"),
        "clojure": ("{:employee/name \"M. Okafor\" :employee/ssn \"", dashed, "\"}\n"),
        "fsharp": ("let employee = { Name = \"M. Okafor\"; Ssn = \"", dashed, "\" }\n"),
        "cobol": ("       05 WS-SSN         PIC X(11) VALUE '", dashed, "'.\n"),
        "julia": ("employee = (name=\"M. Okafor\", ssn=\"", dashed, "\")\n"),
        "w2_box": ("a  Employee's social security number\n   ", dashed, "\n"),
        "form_1099": ("RECIPIENT'S TIN: ", dashed, "\n"),
        "es_us_prose": ("Su número de Seguro Social es ", dashed, ".\n"),
        "ssn_last_known": ("SSN (last known): ", dashed, "\n"),
        "properties": ("test.employee.ssn=", dashed, "\n"),
        "hocon": ("employee {\n  ssn = \"", dashed, "\"\n}\n"),
    }[form]
    _put(doc, lead, v, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = _card(r, m)
    shown = _shown(r, c)
    exp = "%02d%02d" % (r.randint(27, 33), r.randint(1, 12))
    form = r.choice(["paypal_nvp", "iso8583", "track2", "psql_expanded", "sqlite_box", "rst_grid", "jira_table",
                     "pandas_print", "semicolon_csv", "authnet_xml", "json_source", "elixir", "erlang", "clojure",
                     "fsharp", "cobol", "julia", "groovy", "dart", "cy_prose", "eu_prose", "lv_prose", "lt_prose",
                     "hy_prose", "uz_prose", "kk_prose", "ne_prose", "km_prose", "so_prose", "af_prose", "ms_prose",
                     "sm_prose", "eo_prose"])
    lead, v, tail = {
        "paypal_nvp": ("METHOD=DoDirectPayment&PAYMENTACTION=Sale&CREDITCARDTYPE=Visa&ACCT=", c, "&EXPDATE=1129&CVV2=123\n"),
        "iso8583": ("MTI 0100\n  DE002 PAN ..................: ", c, "\n  DE004 AMOUNT ...............: 000000012500\n"),
        "track2": ("track2=;", c, "=%s1011000000000000?\n" % exp),
        "psql_expanded": ("-[ RECORD 1 ]-+----------------------\norder_id      | 88123\ncard_number   | ", shown, "\n"),
        "sqlite_box": ("│ 88123 │ ", c, " │ 11/29 │\n"),
        "rst_grid": ("+--------+----------------------+\n| Order  | Card                 |\n+========+======================+\n| 88123  | ", shown, " |\n"),
        "jira_table": ("||Order||Card number||\n|88123|", shown, "|\n"),
        "pandas_print": ("   order_id          card_number\n0     88123  ", c, "\n"),
        "semicolon_csv": ("Bestellung;Karte;Ablauf\n88123;", c, ";11/29\n"),
        "authnet_xml": ("<creditCard><cardNumber>", c, "</cardNumber><expirationDate>2029-11</expirationDate></creditCard>\n"),
        "json_source": ("{\"source\":{\"object\":\"card\",\"number\":\"", c, "\",\"exp_month\":11}}\n"),
        "elixir": ("%{card_number: \"", shown, "\", exp: \"11/29\"}\n"),
        "erlang": ("{pan, <<\"", c, "\">>}.\n"),
        "clojure": ("(charge! {:card/number \"", shown, "\" :card/exp \"11/29\"})\n"),
        "fsharp": ("let testCard = \"", shown, "\"\n"),
        "cobol": ("       05 WS-CARD-NO     PIC X(19) VALUE '", c, "'.\n"),
        "julia": ("card_number = \"", shown, "\"\n"),
        "groovy": ("def cardNumber = '", shown, "'\n"),
        "dart": ("const cardNumber = '", shown, "';\n"),
        "cy_prose": ("Rhif y cerdyn yw ", shown, ".\n"),
        "eu_prose": ("Txartelaren zenbakia: ", shown, "\n"),
        "lv_prose": ("Kartes numurs: ", shown, "\n"),
        "lt_prose": ("Kortelės numeris: ", shown, "\n"),
        "hy_prose": ("Քարտի համարը՝ ", shown, "\n"),
        "uz_prose": ("Karta raqami: ", shown, "\n"),
        "kk_prose": ("Карта нөмірі: ", shown, "\n"),
        "ne_prose": ("कार्ड नम्बर: ", shown, "\n"),
        "km_prose": ("លេខកាត: ", shown, "\n"),
        "so_prose": ("Lambarka kaarka: ", shown, "\n"),
        "af_prose": ("Die kaartnommer is ", shown, ".\n"),
        "ms_prose": ("Nombor kad: ", shown, "\n"),
        "sm_prose": ("Numera o le kata: ", shown, "\n"),
        "eo_prose": ("La kartnumero estas ", shown, ".\n"),
    }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = m.group4(i)
    nbsp = m.group4(i, "\u00a0")
    form = r.choice(["pain001", "mt103", "epc_qr", "camt_json", "psql_expanded", "sqlite_box", "rst_grid",
                     "jira_table", "semicolon_csv", "invoice_footer_nbsp", "elixir", "clojure", "fsharp", "julia",
                     "properties", "hocon", "cy_prose", "ga_prose", "gl_prose", "mt_prose", "sq_prose", "et_prose",
                     "ka_prose", "az_prose", "tl_prose", "la_prose"])
    lead, v, tail = {
        "pain001": ("<CdtrAcct>\n  <Id>\n    <IBAN>", i, "</IBAN>\n  </Id>\n</CdtrAcct>\n"),
        "mt103": (":50K:/", i, "\nGWEN AP RHYS\nCAERDYDD\n"),
        "epc_qr": ("BCD\n002\n1\nSCT\nBANKBEBBXXX\nItziar Etxeberria\n", i, "\nEUR125.00\n"),
        "camt_json": ("{\"account\":{\"iban\":\"", i, "\",\"currency\":\"EUR\"},\"balance\":\"1204.55\"}\n"),
        "psql_expanded": ("-[ RECORD 2 ]--------------------------\npayee | Kadri Tamm\niban  | ", i, "\n"),
        "sqlite_box": ("│ Kadri Tamm │ ", spaced, " │\n"),
        "rst_grid": ("+------------+-----------------------------+\n| Payee      | IBAN                        |\n+============+=============================+\n| K. Tamm    | ",
                     i, " |\n"),
        "jira_table": ("||Payee||IBAN||\n|K. Tamm|", spaced, "|\n"),
        "semicolon_csv": ("Empfänger;IBAN;Betrag\nK. Tamm;", i, ";120,00\n"),
        "invoice_footer_nbsp": ("Bankverbindung: Sparkasse · IBAN ", nbsp, " · BIC BYLADEM1001\n"),
        "elixir": ("config :payouts, iban: \"", i, "\"\n"),
        "clojure": ("{:payee/iban \"", i, "\"}\n"),
        "fsharp": ("let payoutIban = \"", i, "\"\n"),
        "julia": ("const PAYOUT_IBAN = \"", i, "\"\n"),
        "properties": ("payout.iban=", i, "\n"),
        "hocon": ("payout {\n  iban = \"", i, "\"\n}\n"),
        "cy_prose": ("Talwch i'r cyfrif ", spaced, " os gwelwch yn dda.\n"),
        "ga_prose": ("Íoc leis an gcuntas ", spaced, ".\n"),
        "gl_prose": ("Faga a transferencia á conta ", spaced, ".\n"),
        "mt_prose": ("Ħallas fil-kont ", spaced, ".\n"),
        "sq_prose": ("Paguani në llogarinë ", spaced, ".\n"),
        "et_prose": ("Palun tasuge arvelduskontole ", spaced, ".\n"),
        "ka_prose": ("ანგარიშის ნომერი: ", i, "\n"),
        "az_prose": ("Hesab nömrəsi: ", spaced, "\n"),
        "tl_prose": ("Ipadala ang bayad sa ", spaced, ".\n"),
        "la_prose": ("Pecuniam in rationem ", spaced, " solve.\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4(r)
    form = r.choice(["zeek", "suricata", "asa", "postfix_connect", "dovecot", "openvpn_status", "wg_show",
                     "ss_tn", "netstat", "dig_answer", "etc_hosts", "radius", "dhcpd_lease", "arp_a", "traceroute",
                     "mongodb", "postgres", "vpc_flow", "cloudtrail", "xff_chain", "journald", "sshd_accepted",
                     "fail2ban_ban", "haproxy_server", "nim", "zig", "crystal", "cy_prose", "sq_prose", "uz_prose",
                     "am_prose", "zu_prose"])
    parts = {
        "zeek": ["#separator \\x09\n#fields\tts\tuid\tid.orig_h\tid.orig_p\tid.resp_h\tid.resp_p\tproto\n1796551331.118\tCk3Fx21\t",
                 (ip, "ipv4"), "\t52144\t", (ip2, "ipv4"), "\t443\ttcp\n"],
        "suricata": ["{\"timestamp\":\"2026-12-06T10:02:11.118+0000\",\"event_type\":\"alert\",\"src_ip\":\"", (ip, "ipv4"),
                     "\",\"src_port\":52144,\"dest_ip\":\"", (ip2, "ipv4"), "\",\"dest_port\":22}\n"],
        "asa": ["Dec 06 2026 10:02:11: %ASA-6-302013: Built inbound TCP connection 9182 for outside:", (ip, "ipv4"),
                "/52144 (", (ip, "ipv4"), "/52144) to inside:web01/443 (web01/443)\n"],
        "postfix_connect": ["Dec  6 10:02:11 mx1 postfix/smtpd[2231]: connect from unknown[", (ip, "ipv4"), "]\n"],
        "dovecot": ["Dec  6 10:02:11 mail dovecot: imap-login: Login: user=<kadri>, method=PLAIN, rip=", (ip, "ipv4"),
                    ", lip=", (ip2, "ipv4"), ", mpid=4412, TLS\n"],
        "openvpn_status": ["CLIENT_LIST,laptop-7,", (ip, "ipv4"), ":52144,10.8.0.6,,81211,99213,2026-12-06 10:02:11\n"],
        "wg_show": ["peer: ", _s(r, B64, 43) + "=", "\n  endpoint: ", (ip, "ipv4"), ":51820\n  latest handshake: 41 seconds ago\n"],
        "ss_tn": ["ESTAB 0      0      172.17.0.3:443   ", (ip, "ipv4"), ":52144\n"],
        "netstat": ["tcp        0      0 172.17.0.3:22           ", (ip, "ipv4"), ":52144       ESTABLISHED\n"],
        "dig_answer": [";; ANSWER SECTION:\nmail.example.cy.\t300\tIN\tA\t", (ip, "ipv4"), "\n"],
        "etc_hosts": ["", (ip, "ipv4"), "\tbilling-db.internal billing-db\n"],
        "radius": ["\tUser-Name = \"kadri\"\n\tFramed-IP-Address = ", (ip, "ipv4"), "\n\tNAS-IP-Address = ", (ip2, "ipv4"), "\n"],
        "dhcpd_lease": ["lease ", (ip, "ipv4"), " {\n  starts 0 2026/12/06 10:02:11;\n  hardware ethernet 3c:22:fb:11:0a:9e;\n}\n"],
        "arp_a": ["? (", (ip, "ipv4"), ") at 3c:22:fb:11:0a:9e [ether] on eth0\n"],
        "traceroute": [" 7  ae-2.r21.frnkge13.de.bb.example.net (", (ip, "ipv4"), ")  12.114 ms  11.902 ms  12.301 ms\n"],
        "mongodb": ["{\"t\":{\"$date\":\"2026-12-06T10:02:11.118+00:00\"},\"s\":\"I\",\"c\":\"NETWORK\",\"msg\":\"Connection accepted\",\"attr\":{\"remote\":\"",
                    (ip, "ipv4"), ":52144\",\"connectionCount\":12}}\n"],
        "postgres": ["2026-12-06 10:02:11.118 UTC [4412] LOG:  connection received: host=", (ip, "ipv4"), " port=52144\n"],
        "vpc_flow": ["2 123456789012 eni-0a1b2c3d4e5f67890 ", (ip, "ipv4"), " ", (ip2, "ipv4"), " 52144 443 6 12 4312 1796551331 1796551391 ACCEPT OK\n"],
        "cloudtrail": ["{\"eventName\":\"ConsoleLogin\",\"sourceIPAddress\":\"", (ip, "ipv4"), "\",\"userAgent\":\"signin.amazonaws.com\"}\n"],
        "xff_chain": ["X-Forwarded-For: ", (ip, "ipv4"), ", ", (ip2, "ipv4"), "\n"],
        "journald": ["_HOSTNAME=web01\nSYSLOG_IDENTIFIER=sshd\nMESSAGE=Connection closed by authenticating user root ", (ip, "ipv4"),
                     " port 52144 [preauth]\n\n"],
        "sshd_accepted": ["Dec  6 10:02:11 web01 sshd[4412]: Accepted publickey for deploy from ", (ip, "ipv4"), " port 52144 ssh2: ED25519 SHA256:",
                          _s(r, B64, 43), "\n"],
        "fail2ban_ban": ["2026-12-06 10:02:11,118 fail2ban.actions [771]: NOTICE  [sshd] Ban ", (ip, "ipv4"), "\n"],
        "haproxy_server": ["backend api\n    server api1 ", (ip, "ipv4"), ":8080 check inter 2s\n"],
        "nim": ["const upstream = \"", (ip, "ipv4"), "\"\n"],
        "zig": ["const peer = try std.net.Address.parseIp4(\"", (ip, "ipv4"), "\", 443);\n"],
        "crystal": ["server = HTTP::Server.new(handler)\nserver.bind_tcp \"", (ip, "ipv4"), "\", 8080\n"],
        "cy_prose": ["Cyfeiriad IP y cleient oedd ", (ip, "ipv4"), ".\n"],
        "sq_prose": ["Adresa IP e klientit ishte ", (ip, "ipv4"), ".\n"],
        "uz_prose": ["Mijozning IP manzili: ", (ip, "ipv4"), "\n"],
        "am_prose": ["የደንበኛው IP አድራሻ: ", (ip, "ipv4"), "\n"],
        "zu_prose": ["Ikheli le-IP leklayenti ngu-", (ip, "ipv4"), ".\n"],
    }[form]
    _seq(doc, form, parts)


def i_ipv6(r, doc, m):
    ip, ip2 = _v6(r), _v6(r)
    form = r.choice(["zeek6", "suricata6", "postfix6", "dovecot6", "sshd6", "dig_aaaa", "ip_addr", "ip6tables",
                     "bind_acl", "mongodb6", "nginx_log6", "wg_allowed", "cloudtrail6", "xff6", "et_prose",
                     "hy_prose", "ms_prose", "eo_prose", "csv6"])
    parts = {
        "zeek6": ["1796551331.118\tCk3Fx22\t", (ip, "ipv6"), "\t52144\t", (ip2, "ipv6"), "\t443\ttcp\n"],
        "suricata6": ["{\"event_type\":\"flow\",\"src_ip\":\"", (ip, "ipv6"), "\",\"dest_ip\":\"", (ip2, "ipv6"), "\",\"proto\":\"TCP\"}\n"],
        "postfix6": ["Dec  6 10:02:11 mx1 postfix/smtpd[2231]: 4Ft1kQ0x2F: client=mail.example.cy[", (ip, "ipv6"), "]\n"],
        "dovecot6": ["dovecot: imap-login: Login: user=<kadri>, method=PLAIN, rip=", (ip, "ipv6"), ", lip=", (ip2, "ipv6"), ", TLS\n"],
        "sshd6": ["sshd[4412]: Accepted password for deploy from ", (ip, "ipv6"), " port 52144 ssh2\n"],
        "dig_aaaa": ["mail.example.cy.\t300\tIN\tAAAA\t", (ip, "ipv6"), "\n"],
        "ip_addr": ["2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500\n    inet6 ", (ip, "ipv6"), "/64 scope global dynamic\n"],
        "ip6tables": ["ip6tables -I INPUT -s ", (ip, "ipv6"), " -j DROP\n"],
        "bind_acl": ["acl trusted {\n    ", (ip, "ipv6"), ";\n};\n"],
        "mongodb6": ["{\"c\":\"NETWORK\",\"msg\":\"Connection ended\",\"attr\":{\"remote\":\"[", (ip, "ipv6"), "]:52144\"}}\n"],
        "nginx_log6": ["", (ip, "ipv6"), " - - [06/Dec/2026:10:02:11 +0000] \"GET /healthz HTTP/2.0\" 200 2 \"-\" \"kube-probe/1.31\"\n"],
        "wg_allowed": ["[Peer]\nPublicKey = ", _s(r, B64, 43) + "=", "\nAllowedIPs = 10.9.0.2/32\nEndpoint = [", (ip, "ipv6"), "]:51820\n"],
        "cloudtrail6": ["{\"eventName\":\"GetObject\",\"sourceIPAddress\":\"", (ip, "ipv6"), "\"}\n"],
        "xff6": ["X-Forwarded-For: ", (ip, "ipv6"), "\n"],
        "et_prose": ["Kliendi IPv6-aadress oli ", (ip, "ipv6"), ".\n"],
        "hy_prose": ["Հաճախորդի IPv6 հասցեն՝ ", (ip, "ipv6"), "\n"],
        "ms_prose": ["Alamat IPv6 pelanggan ialah ", (ip, "ipv6"), ".\n"],
        "eo_prose": ["La IPv6-adreso de la kliento estis ", (ip, "ipv6"), ".\n"],
        "csv6": ["ts;client;status\n2026-12-06T10:02:11Z;", (ip, "ipv6"), ";200\n"],
    }[form]
    _seq(doc, form, parts)


def i_api_key(r, doc, m):
    t = _tok(r, r.randint(18, 34))
    form = r.choice([
        "hdr_apim", "hdr_goog", "hdr_vault", "hdr_rapidapi", "hdr_kong_apikey", "hdr_authorization_token",
        "query_access_key", "query_api_token", "hocon", "properties", "spring_password", "appsettings",
        "reg_file", "supervisord", "launchd", "systemd_env", "haproxy_userlist", "pypirc", "gem_credentials",
        "helm_values", "compose_env_list", "odbc", "pgpass", "powershell", "elixir", "erlang", "clojure",
        "fsharp", "ocaml", "nim", "zig", "crystal", "julia", "r_setenv", "matlab", "fortran", "cobol", "ada",
        "delphi", "dart", "groovy", "tcl", "starlark", "jsonnet", "cy_prose", "ga_prose", "lv_prose",
        "langsmith", "groq", "xai", "replicate", "figma", "contentful", "dynatrace", "buildkite", "circleci",
        "prefect", "sentry_org", "pulumi", "newrelic", "square", "laravel_app_key", "rails_secret_key_base"])
    lead, v, tail = {
        "hdr_apim": ("Ocp-Apim-Subscription-Key: ", _s(r, HEX, 32), "\n"),
        "hdr_goog": ("curl -s -H \"x-goog-api-key: ", "AIza" + _s(r, AN + "-_", 35), "\" https://generativelanguage.googleapis.com/v1beta/models\n"),
        "hdr_vault": ("X-Vault-Token: ", "hvs." + _tok(r, 90), "\n"),
        "hdr_rapidapi": ("'X-RapidAPI-Key': '", _s(r, HEX, 10) + "msh" + _s(r, HEX, 15) + "p1" + _s(r, HEX, 6) + "jsn" + _s(r, HEX, 12), "',\n"),
        "hdr_kong_apikey": ("GET /orders HTTP/1.1\nHost: api.example.cy\napikey: ", t, "\n"),
        "hdr_authorization_token": ("Authorization: Token ", _s(r, HEX, 40), "\n"),
        "query_access_key": ("GET /v1/latest?access_key=", _s(r, HEX, 32), "&base=EUR HTTP/1.1\n"),
        "query_api_token": ("https://api.example.cy/v2/export?format=csv&api_token=", t, "\n"),
        "hocon": ("payments {\n  secret-key = \"", t, "\"\n}\n"),
        "properties": ("app.client.secret=", t, "\n"),
        "spring_password": ("spring.datasource.username=app\nspring.datasource.password=", t, "\n"),
        "appsettings": ("{\n  \"AzureAd\": {\n    \"ClientId\": \"%s\",\n    \"ClientSecret\": \"" % _s(r, HEX, 8), t, "\"\n  }\n}\n"),
        "reg_file": ("[HKEY_LOCAL_MACHINE\\SOFTWARE\\Example\\Agent]\n\"ApiKey\"=\"", t, "\"\n"),
        "supervisord": ("[program:worker]\ncommand=/srv/app/worker\nenvironment=SECRET_KEY=\"", t, "\",LANG=\"C.UTF-8\"\n"),
        "launchd": ("<key>EnvironmentVariables</key>\n<dict>\n  <key>API_TOKEN</key>\n  <string>", t, "</string>\n</dict>\n"),
        "systemd_env": ("[Service]\nEnvironment=\"API_TOKEN=", t, "\"\nExecStart=/usr/local/bin/agent\n"),
        "haproxy_userlist": ("userlist admins\n    user stats insecure-password ", t, "\n"),
        "pypirc": ("[pypi]\nusername = __token__\npassword = ", "pypi-AgEIcHlwaS5vcmc" + _s(r, B64URL, 60), "\n"),
        "gem_credentials": ("---\n:rubygems_api_key: ", "rubygems_" + _s(r, HEX, 48), "\n"),
        "helm_values": ("postgresql:\n  auth:\n    username: app\n    password: ", t, "\n"),
        "compose_env_list": ("    environment:\n      - POSTGRES_USER=app\n      - POSTGRES_PASSWORD=", t, "\n"),
        "odbc": ("Driver={ODBC Driver 18 for SQL Server};Server=tcp:sql.example.cy,1433;Uid=app;Pwd=", t, ";Encrypt=yes;\n"),
        "pgpass": ("db.example.cy:5432:billing:app:", t, "\n"),
        "powershell": ("$pw = ConvertTo-SecureString \"", t, "\" -AsPlainText -Force\n"),
        "elixir": ("config :stripity_stripe, api_key: \"", t, "\"\n"),
        "erlang": ("{api_secret, \"", t, "\"}.\n"),
        "clojure": ("(def config {:api-key \"", t, "\"})\n"),
        "fsharp": ("let apiSecret = \"", t, "\"\n"),
        "ocaml": ("let api_token = \"", t, "\"\n"),
        "nim": ("const apiKey = \"", t, "\"\n"),
        "zig": ("const api_token = \"", t, "\";\n"),
        "crystal": ("API_SECRET = \"", t, "\"\n"),
        "julia": ("const API_KEY = \"", t, "\"\n"),
        "r_setenv": ("Sys.setenv(OPENAI_API_KEY = \"", "sk-proj-" + _s(r, AN + "_-", 48), "\")\n"),
        "matlab": ("apiKey = '", t, "';\n"),
        "fortran": ("character(len=*), parameter :: api_token = '", t, "'\n"),
        "cobol": ("       01 WS-PASSWORD    PIC X(32) VALUE '", t, "'.\n"),
        "ada": ("Api_Key : constant String := \"", t, "\";\n"),
        "delphi": ("const ApiSecret = '", t, "';\n"),
        "dart": ("const apiKey = '", t, "';\n"),
        "groovy": ("def apiToken = '", t, "'\n"),
        "tcl": ("set api_password \"", t, "\"\n"),
        "starlark": ("container_push(\n    name = \"push\",\n    registry_password = \"", t, "\",\n)\n"),
        "jsonnet": ("{\n  secret_key: '", t, "',\n}\n"),
        "cy_prose": ("Y cyfrinair newydd yw ", t, " — peidiwch â'i rannu.\n"),
        "ga_prose": ("Is é an pasfhocal nua ná ", t, ".\n"),
        "lv_prose": ("Jaunā parole: ", t, "\n"),
        "langsmith": ("LANGSMITH_API_KEY=", "lsv2_pt_" + _s(r, HEX, 32) + "_" + _s(r, HEX, 10), "\n"),
        "groq": ("GROQ_API_KEY=", "gsk_" + _s(r, AN, 52), "\n"),
        "xai": ("XAI_API_KEY=", "xai-" + _s(r, AN, 80), "\n"),
        "replicate": ("REPLICATE_API_TOKEN=", "r8_" + _s(r, AN, 37), "\n"),
        "figma": ("FIGMA_TOKEN=", "figd_" + _s(r, AN + "_-", 40), "\n"),
        "contentful": ("CONTENTFUL_MANAGEMENT_TOKEN=", "CFPAT-" + _s(r, AN + "_-", 43), "\n"),
        "dynatrace": ("DT_API_TOKEN=", "dt0c01." + _s(r, UP + D, 24) + "." + _s(r, UP + D, 64), "\n"),
        "buildkite": ("BUILDKITE_API_TOKEN=", "bkua_" + _s(r, HEX, 40), "\n"),
        "circleci": ("CIRCLE_TOKEN=", "CCIPAT_" + _s(r, AN, 22) + "_" + _s(r, HEX, 40), "\n"),
        "prefect": ("PREFECT_API_KEY=", "pnu_" + _s(r, AN, 36), "\n"),
        "sentry_org": ("SENTRY_AUTH_TOKEN=", "sntrys_" + _s(r, B64URL, 120), "\n"),
        "pulumi": ("PULUMI_ACCESS_TOKEN=", "pul-" + _s(r, HEX, 40), "\n"),
        "newrelic": ("NEW_RELIC_API_KEY=", "NRAK-" + _s(r, UP + D, 27), "\n"),
        "square": ("SQUARE_ACCESS_TOKEN=", "EAAA" + _s(r, AN + "-_", 60), "\n"),
        "laravel_app_key": ("APP_KEY=base64:", base64.b64encode(bytes(r.randrange(256) for _ in range(32))).decode(), "\n"),
        "rails_secret_key_base": ("production:\n  secret_key_base: ", _s(r, HEX, 128), "\n"),
    }[form]
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["dpop_auth", "dpop_proof", "kubeconfig", "sa_token_cat", "har_header", "http_file",
                     "postman_env", "grpc_metadata", "token_response", "elixir", "clojure", "dart", "julia",
                     "eu_prose", "sq_prose", "mn_prose", "cookie_jwt"])
    lead, tail = {
        "dpop_auth": ("Authorization: DPoP ", "\n"),
        "dpop_proof": ("DPoP: ", "\n"),
        "kubeconfig": ("users:\n- name: ci\n  user:\n    token: ", "\n"),
        "sa_token_cat": ("$ cat /var/run/secrets/kubernetes.io/serviceaccount/token\n", "\n$ \n"),
        "har_header": ("{\"name\": \"authorization\", \"value\": \"Bearer ", "\"},\n"),
        "http_file": ("@token = ", "\n\nGET {{host}}/me\nAuthorization: Bearer {{token}}\n"),
        "postman_env": ("{\"key\": \"accessToken\", \"value\": \"", "\", \"enabled\": true}\n"),
        "grpc_metadata": ("grpcurl -H 'authorization: bearer ", "' api.example.cy:443 list\n"),
        "token_response": ("{\"token_type\":\"Bearer\",\"expires_in\":3599,\"id_token\":\"", "\"}\n"),
        "elixir": ("token = \"", "\"\n"),
        "clojure": ("(def id-token \"", "\")\n"),
        "dart": ("final jwt = '", "';\n"),
        "julia": ("token = \"", "\"\n"),
        "eu_prose": ("Hona nire tokena: ", "\n"),
        "sq_prose": ("Ja tokeni im: ", "\n"),
        "mn_prose": ("Миний токен: ", "\n"),
        "cookie_jwt": ("Set-Cookie: jwt=", "; HttpOnly; Secure; SameSite=Lax\n"),
    }[form]
    _put(doc, lead, _jwt(r), "jwt", form, tail)


def i_private_key(r, doc, m):
    kind = r.choice(["", "RSA ", "EC ", "OPENSSH ", "DSA "])
    form = r.choice(["crlf", "col76", "java_text_block", "go_raw", "tf_heredoc", "shell_heredoc", "json_lines",
                     "pgp_block", "k8s_b64", "ppk", "markdown_fence", "html_pre", "elixir_sigil", "eu_prose",
                     "ka_prose"])
    head, foot = "-----BEGIN %sPRIVATE KEY-----" % kind, "-----END %sPRIVATE KEY-----" % kind
    lines = _pem_body(r, 64)
    k = "\n".join([head] + lines + [foot])
    if form == "crlf":
        lead, v, tail = "C:\\> type server.key\r\n", k.replace("\n", "\r\n"), "\r\nC:\\> \r\n"
    elif form == "col76":
        v = "\n".join([head] + _pem_body(r, 76) + [foot])
        lead, tail = "Content-Type: application/pkcs8; name=\"key.pem\"\n\n", "\n"
    elif form == "java_text_block":
        lead, v, tail = "private static final String KEY = \"\"\"\n", k, "\n    \"\"\";\n"
    elif form == "go_raw":
        lead, v, tail = "const testKey = `", k, "`\n"
    elif form == "tf_heredoc":
        lead, v, tail = "resource \"tls_self_signed_cert\" \"ca\" {\n  private_key_pem = <<-EOT\n", k, "\n  EOT\n}\n"
    elif form == "shell_heredoc":
        lead, v, tail = "cat > ~/.ssh/id_deploy <<'EOF'\n", k, "\nEOF\nchmod 600 ~/.ssh/id_deploy\n"
    elif form == "json_lines":
        kind = kind or "RSA "
        head, foot = "-----BEGIN %sPRIVATE KEY-----" % kind, "-----END %sPRIVATE KEY-----" % kind
        v = "\", \"".join([head] + lines + [foot])
        lead, tail = "{\"key_lines\": [\"", "\"]}\n"
    elif form == "pgp_block":
        kind = "PGP "
        v = "\n".join(["-----BEGIN PGP PRIVATE KEY BLOCK-----", "", ] + lines + ["=" + _s(r, B64, 4),
                                                                                "-----END PGP PRIVATE KEY BLOCK-----"])
        lead, tail = "$ gpg --export-secret-keys --armor ops@example.cy\n", "\n"
    elif form == "k8s_b64":
        v = base64.b64encode(k.encode()).decode()
        lead, tail = "apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\ndata:\n  tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n  tls.key: ", "\n"
    elif form == "ppk":
        kind = "PPK "
        pub = [_s(r, B64, 64) for _ in range(6)]
        priv = [_s(r, B64, 64) for _ in range(14)]
        v = "\n".join(["PuTTY-User-Key-File-3: ssh-rsa", "Encryption: none", "Comment: deploy@example.cy",
                       "Public-Lines: 6"] + pub + ["Private-Lines: 14"] + priv + ["Private-MAC: " + _s(r, HEX, 64)])
        lead, tail = "$ cat deploy.ppk\n", "\n"
    elif form == "markdown_fence":
        lead, v, tail = "Here is the key you asked for:\n\n```\n", k, "\n```\n"
    elif form == "html_pre":
        lead, v, tail = "<pre class=\"key\">", k, "</pre>\n"
    elif form == "elixir_sigil":
        lead, v, tail = "@private_key ~S\"\"\"\n", k, "\n\"\"\"\n"
    elif form == "eu_prose":
        lead, v, tail = "Zerbitzariaren gako pribatua:\n", k, "\nEz partekatu inorekin.\n"
    else:
        lead, v, tail = "სერვერის პირადი გასაღები:\n", k, "\nარავის გაუზიაროთ.\n"
    _put(doc, lead, v, "private_key", "%s_%s" % (form, kind.strip().lower() or "pkcs8"), tail)


def i_url(r, doc, m):
    pw = _tok(r, r.randint(10, 22)) + r.choice(["", "", "", "%40", "%23x", "-", "_", ".", "%3A" + _d(r, 2)])
    form = r.choice(["redis_empty_user", "pg_multihost", "mongo_replset", "json_escaped", "pct_user", "socks5h",
                     "mqtts", "wss", "webdav", "ipv6_host", "git_credentials", "markdown_link", "pip_proxy",
                     "elixir", "clojure", "julia", "hocon", "properties", "cy_prose", "sq_prose"])
    lead, tail = {
        "redis_empty_user": ("REDIS_URL=rediss://:", "@cache.example.cy:6380/0\n"),
        "pg_multihost": ("DATABASE_URL=postgresql://app:", "@pg1.example.cy:5432,pg2.example.cy:5432/app?target_session_attrs=read-write\n"),
        "mongo_replset": ("mongodb://svc:", "@mongo1.example.cy:27017,mongo2.example.cy:27017/app?replicaSet=rs0\n"),
        "json_escaped": ("{\"feed\":\"https:\\/\\/reader:", "@feeds.example.cy\\/private.xml\"}\n"),
        "pct_user": ("svn checkout https://gwen%40example.cy:", "@svn.example.cy/repos/app/trunk\n"),
        "socks5h": ("ALL_PROXY=socks5h://relay:", "@proxy.example.cy:1080\n"),
        "mqtts": ("mosquitto_sub -L mqtts://sensor:", "@broker.example.cy:8883/telemetry/#\n"),
        "wss": ("const ws = new WebSocket(\"wss://bot:", "@stream.example.cy/v1\");\n"),
        "webdav": ("rclone lsd webdav://nextcloud:", "@cloud.example.cy/remote.php/dav\n"),
        "ipv6_host": ("AMQP_URL=amqp://worker:", "@[2a01:4f8:c17:1a2b::2]:5672/prod\n"),
        "git_credentials": ("$ cat ~/.git-credentials\nhttps://ci-bot:", "@git.example.cy\n"),
        "markdown_link": ("Mirror: [artifacts](https://deploy:", "@artifacts.example.cy/releases/)\n"),
        "pip_proxy": ("[global]\nproxy = http://build:", "@proxy.example.cy:3128\n"),
        "elixir": ("config :app, App.Repo, url: \"ecto://app:", "@db.example.cy/app_prod\"\n"),
        "clojure": ("(def db-uri \"postgresql://app:", "@db.example.cy:5432/app\")\n"),
        "julia": ("conn = LibPQ.Connection(\"postgresql://app:", "@db.example.cy/app\")\n"),
        "hocon": ("db {\n  url = \"mysql://app:", "@db.example.cy:3306/shop\"\n}\n"),
        "properties": ("broker.url=amqps://svc:", "@mq.example.cy:5671/prod\n"),
        "cy_prose": ("Cysylltwch â https://gwen:", "@ffeiliau.example.cy/ i lwytho.\n"),
        "sq_prose": ("Përdorni https://arben:", "@skedaret.example.al/ për ngarkim.\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def _luhn_complete(r, m, body):
    return body + m.luhn_digit(body)


def _creditor_id(r):
    cc = r.choice(["DE", "NL", "AT", "FR", "ES"])
    nat = _d(r, 10) if cc != "FR" else _s(r, UP + D, 6)
    check = 98 - mod97(nat + cc + "00")
    return "%s%02dZZZ%s" % (cc, check, nat)


def _rf_ref(r):
    ref = _s(r, D + UP, r.randint(8, 16))
    check = 98 - mod97(ref + "RF00")
    return "RF%02d%s" % (check, ref)


def _lei(r):
    body = _d(r, 4) + "00" + _s(r, UP + D, 12)
    check = 98 - mod97(body + "00")
    return "%s%02d" % (body, check)


def _isin(r, m):
    cc = r.choice(["US", "DE", "GB", "FR", "IE", "LU"])
    body = cc + _s(r, UP + D, 9)
    digits = "".join(str(int(c, 36)) for c in body)
    return body + m.luhn_digit(digits)


def i_look(r, doc, m):
    q = r.randint
    kind = r.choice([
        "imei", "iccid", "creditor_id", "rf_reference", "lei", "isin", "retina_image", "cdn_pkg_version",
        "shell_prompt", "git_remote", "matrix_id", "krb_service_principal", "sentry_dsn", "gcp_private_key_id",
        "idempotency_key", "s3_object_key", "win_file_version", "chrome_ua", "snmp_oid", "idr_amount",
        "signed_coords", "ein", "zip4", "isbn10", "wwn", "pgp_public_block", "ssh_ed25519_pub", "pem_header_mention",
        "et_outline", "cy_outline", "request_id_uuid", "k8s_resource_version", "content_length", "pkg_lock_integrity",
        "dotnet_version", "git_describe", "npm_scoped", "epoch_ms", "snowflake_id", "ean13", "time_range",
        "secret_ref_placeholder", "password_policy", "token_usage", "api_key_id", "ipv4_like_build"])
    lead, v, tail = {
        "imei": ("IMEI: ", _luhn_complete(r, m, "35" + _d(r, 12)), "\n"),
        "iccid": ("ICCID ", _luhn_complete(r, m, "8935" + _d(r, 14)), " activated\n"),
        "creditor_id": ("Gläubiger-ID: ", _creditor_id(r), "\n"),
        "rf_reference": ("Viitenumero / Reference: ", _rf_ref(r), "\n"),
        "lei": ("LEI: ", _lei(r), "\n"),
        "isin": ("ISIN ", _isin(r, m), " (ETF)\n"),
        "retina_image": ("<img src=\"/static/", "logo@2x.png", "\" srcset=\"/static/logo@3x.png 3x\">\n"),
        "cdn_pkg_version": ("<script src=\"", "https://cdn.jsdelivr.net/npm/vue@3.%d.%d/dist/vue.global.prod.js" % (q(2, 5), q(0, 30)), "\"></script>\n"),
        "shell_prompt": ("", "root@web-%02d:~#" % q(1, 40), " systemctl status nginx\n"),
        "git_remote": ("git remote add origin ", "git@github.com:example-org/tracegate-%s.git" % _s(r, LOW, 5), "\n"),
        "matrix_id": ("Matrix: ", "@%s:matrix.example.cy" % r.choice(["gwen", "kadri", "arben"]), "\n"),
        "krb_service_principal": ("principal = ", "HTTP/web%02d.example.cy@EXAMPLE.CY" % q(1, 40), "\n"),
        "sentry_dsn": ("SENTRY_DSN=", "https://%s@o%d.ingest.sentry.io/%d" % (_s(r, HEX, 32), q(10 ** 5, 10 ** 6), q(10 ** 6, 10 ** 7)), "\n"),
        "gcp_private_key_id": ("  \"private_key_id\": \"", _s(r, HEX, 40), "\",\n"),
        "idempotency_key": ("Idempotency-Key: ", "%s-%s-4%s-a%s-%s" % (_s(r, HEX, 8), _s(r, HEX, 4), _s(r, HEX, 3), _s(r, HEX, 3), _s(r, HEX, 12)), "\n"),
        "s3_object_key": ("\"object_key\": \"", "uploads/2026/12/%s.pdf" % _s(r, HEX, 24), "\"\n"),
        "win_file_version": ("FileVersion: ", "10.0.%d.%d" % (q(19041, 26100), q(1, 5000)), "\n"),
        "chrome_ua": ("User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/",
                      "%d.0.%d.%d" % (q(110, 140), q(5000, 7000), q(10, 250)), " Safari/537.36\n"),
        "snmp_oid": ("snmpget -v2c -c public switch01 ", "1.3.6.1.2.1.2.2.1.%d.%d" % (q(1, 22), q(1, 48)), "\n"),
        "idr_amount": ("Total: Rp ", "%d.%03d.%03d.%03d" % (q(1, 9), q(0, 999), q(0, 999), q(0, 999)), ",00\n"),
        "signed_coords": ("location: ", "+%d.%04d, -%d.%04d" % (q(10, 60), q(0, 9999), q(1, 120), q(0, 9999)), "\n"),
        "ein": ("Employer Identification Number (EIN): ", "%02d-%07d" % (q(10, 99), q(0, 9999999)), "\n"),
        "zip4": ("Ship to: 1600 Main St, Springfield, IL ", "%05d-%04d" % (q(10000, 99999), q(1, 9999)), "\n"),
        "isbn10": ("ISBN ", "0-%03d-%05d-%d" % (q(100, 999), q(0, 99999), q(0, 9)), "\n"),
        "wwn": ("port WWN ", ":".join("%02x" % q(0, 255) for _ in range(8)), "\n"),
        "pgp_public_block": ("", "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n" + "\n".join(_pem_body(r, 64)) + "\n=" + _s(r, B64, 4) +
                             "\n-----END PGP PUBLIC KEY BLOCK-----", "\n"),
        "ssh_ed25519_pub": ("", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + _s(r, B64, 43) + " deploy@example.cy", "\n"),
        "pem_header_mention": ("The file must start with ", "-----BEGIN OPENSSH PRIVATE KEY-----", " and end with the matching END line.\n"),
        "et_outline": ("Vt punkt ", "%d.%d.%d.%d" % (q(1, 9), q(1, 9), q(1, 9), q(1, 9)), " lepingus.\n"),
        "cy_outline": ("Gweler adran ", "%d.%d.%d.%d" % (q(1, 9), q(1, 9), q(1, 9), q(1, 9)), " o'r cytundeb.\n"),
        "request_id_uuid": ("\"request_id\": \"", "%s-%s-%s-%s-%s" % (_s(r, HEX, 8), _s(r, HEX, 4), _s(r, HEX, 4), _s(r, HEX, 4), _s(r, HEX, 12)), "\"\n"),
        "k8s_resource_version": ("  resourceVersion: \"", str(q(10 ** 7, 10 ** 9)), "\"\n"),
        "content_length": ("Content-Length: ", str(q(100, 10 ** 7)), "\n"),
        "pkg_lock_integrity": ("\"integrity\": \"", "sha512-" + _s(r, B64, 86) + "==", "\"\n"),
        "dotnet_version": ("<PackageReference Include=\"Npgsql\" Version=\"", "%d.%d.%d.%d" % (q(4, 9), q(0, 9), q(0, 9), q(0, 999)), "\" />\n"),
        "git_describe": ("built from ", "v%d.%d.%d-%d-g%s" % (q(0, 3), q(0, 40), q(0, 9), q(1, 300), _s(r, HEX, 7)), "\n"),
        "npm_scoped": ("npm i ", "@example-cy/ui-kit@%d.%d.%d" % (q(0, 9), q(0, 30), q(0, 30)), "\n"),
        "epoch_ms": ("\"ts\": ", str(q(1_700_000_000_000, 1_900_000_000_000)), ",\n"),
        "snowflake_id": ("message_id=", str(q(10 ** 18, 2 * 10 ** 18)), "\n"),
        "ean13": ("EAN ", _luhn_complete(r, m, "40" + _d(r, 10)), "\n"),
        "time_range": ("Oriau agor: ", "%02d:%02d-%02d:%02d" % (q(6, 10), r.choice([0, 30]), q(16, 20), r.choice([0, 30])), "\n"),
        "secret_ref_placeholder": ("api_key: ", r.choice(["${API_KEY}", "{{ .Values.apiKey }}", "<your-api-key>", "$(API_TOKEN)", "env:OPENAI_API_KEY"]), "\n"),
        "password_policy": ("password_max_age_days = ", str(q(30, 365)), "\n"),
        "token_usage": ("{\"prompt_tokens\": ", str(q(10, 9000)), ", \"completion_tokens\": 120}\n"),
        "api_key_id": ("\"api_key_id\": \"", "key_" + _s(r, LOW + D, 20), "\"\n"),
        "ipv4_like_build": ("Build ", "%d.%d.%d.%d" % (q(1, 30), q(0, 9), q(100, 999), q(1000, 9999)), " (x64)\n"),
    }[kind]
    doc.t(lead)
    doc.look(v, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["\n", "-- ----\n", "; ----\n", "# ----\n", "(* ---- *)\n", "*> ----\n", "\n----\n"]


# Real addresses in this family's own fixed text (a `gpg` user id, the
# local end of `ss` and `netstat` lines, an OpenVPN virtual address, a
# WireGuard peer's allowed address, an AMQP host), left unlabeled when
# it was written: a detector that removed them was scored as wrong.
FILLER_VALUES = [("ops@example.cy", "email"), ("172.17.0.3", "ipv4"), ("10.8.0.6", "ipv4"), ("10.9.0.2", "ipv4"),
                 ("2a01:4f8:c17:1a2b::2", "ipv6")]


def heldout10_doc(r, doc, m):
    """One text of the eleventh family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
    label_filler(doc, FILLER_VALUES)
