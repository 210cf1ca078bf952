"""The thirteenth held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout13`; not run on its own.

A fourteenth template family, written and committed before any detector
change of the eleventh round (the round that closes heldout12's misses),
from real-world formats and not from the detectors' code. The session
that wrote it knew heldout12's per-class figures as its brief named them
(recall api_key, credit_card, email, private_key, us_ssn; precision
us_ssn, phone, email) and grepped the twelve earlier families only for
surroundings to keep clear of; only its per-class table is looked at
until the round's final measurement.

Surroundings that no other family writes, most from personal finance
and accounting tools, mobile app builds, secret managers, host security
agents and team messengers: OFX statements, beancount and hledger
ledgers, QuickBooks IIF, NACHA entry detail records, Fedwire tags,
iCalendar `ATTENDEE`/`ORGANIZER` lines; Jupyter notebook outputs
(`.ipynb` JSON, one string per line), Info.plist, AndroidManifest
`<meta-data>`, `gradle.properties`, Xcode `.xcconfig`, `Podfile`,
`launchSettings.json`, IIS `web.config` `<appSettings>`; 1Password
`op item get --format json`, Bitwarden `bw get item`, KeePass XML,
hiera YAML, Chef data bags, `rebar.config`/`sys.config`, Elixir
`runtime.exs`; Wazuh alerts, osquery results, Falco alerts, `krb5.conf`,
`tnsnames.ora`, BIND `named.conf` (TSIG keys), `chrony.conf`, Varnish
VCL backends, lighttpd; Rocket.Chat, Microsoft Teams, `signal-cli`,
Nextcloud Talk, WeCom, LINE and Kakao webhooks; Thrift debug strings
and CBOR diagnostic notation; Kotlin `trimMargin` strings and Rust raw
strings; prose in Tibetan, Tigrinya, Dhivehi, Inuktitut, Cherokee,
Javanese, Cebuano, Wolof, Kinyarwanda, Romansh and Bashkir. Values in
shapes the earlier families did not write: emails with a quoted local
part or an internationalized local part, lowercase and
non-breaking-space-grouped IBANs of Russia, Mongolia, Oman, Yemen,
Honduras, Falklands, Nicaragua, Djibouti, Somalia, Seychelles; Diners
4-6-4, MIR, Dankort, Verve, Hipercard cards, cards grouped by
non-breaking spaces; phones of Bhutan, Maldives, Rwanda, Senegal in new
surroundings and `tel:` links; SSNs with en dashes or dots after an SSN
word; unsigned (`alg: none`) JWTs; private keys split over notebook
JSON strings and Kotlin margins; `rediss://`, `nats://`,
`clickhouse://`, `sqlserver://`, `couchbase://`, `git+https://` URLs.

Look-alikes no family wrote as such a set: OFX `FITID`s, NACHA trace
numbers, Fedwire IMADs, iCalendar `UID`s (`x@host`), Falco nanosecond
times, WeCom message ids (19 digits), Teams meeting ids, 1Password item
ids, KeePass UUIDs, Android signing SHA-1 fingerprints, Go module
`@version`s, Docker `@sha256:` digests, Fibre Channel WWNs and PTP clock
ids (eight hex pairs with colons), Cisco dotted MACs, money with dots
as thousands separators (`COP 2.150.000.000`), Korean business
registration numbers and US EINs, ISBN-13s, Brazilian CEPs, boleto
lines, UPI references, Firebase app ids, IPFS CIDs, Nostr `npub`s.

It reuses only the value makers of `detect_corpus.py` (group4, luhn
digit) and the small ones of `detect_values.py`. Its texts are drawn
from their own seed (`detect_corpus.py` offsets the split's seed by
13013). It is the project's own, like the others.
"""
import base64

from detect_values import AN, D, HEX, UHEX, UP, LOW, B64, B64URL, _d, _nz, _put, _s, _seq, _ssn, _tok, with_check, family_doc

NBSP = "\u00a0"


def _iban(r):
    country, bban = r.choice([
        ("RU", lambda: _d(r, 9) + _d(r, 5) + _s(r, UP + D, 15)),
        ("MN", lambda: _d(r, 4) + _d(r, 12)),
        ("OM", lambda: _d(r, 3) + _s(r, UP + D, 16)),
        ("YE", lambda: _s(r, UP, 4) + _d(r, 4) + _s(r, UP + D, 18)),
        ("HN", lambda: _s(r, UP, 4) + _d(r, 20)),
        ("FK", lambda: _s(r, UP, 2) + _d(r, 12)),
        ("NI", lambda: _s(r, UP, 4) + _d(r, 20)),
        ("DJ", lambda: _d(r, 23)),
        ("SO", lambda: _d(r, 4) + _d(r, 3) + _d(r, 12)),
        ("SC", lambda: _s(r, UP, 4) + _d(r, 20) + _s(r, UP, 3)),
        ("BR", lambda: _d(r, 23) + _s(r, UP, 1) + _s(r, UP + D, 1)),
        ("FR", lambda: _d(r, 10) + _s(r, UP + D, 11) + _d(r, 2)),
        ("IT", lambda: _s(r, UP, 1) + _d(r, 10) + _s(r, UP + D, 12)),
    ])
    return with_check(country, bban())


def _card(r, m):
    """A card of a brand or grouping no family named, with its Luhn digit."""
    kind = r.choice(["diners", "mir", "dankort", "verve", "hipercard", "jcb", "unionpay17", "discover65", "visa",
                     "mc", "amex", "mc2"])
    prefix, n = {
        "diners": (r.choice(["36", "38", "300", "305"]), 14),
        "mir": ("220" + r.choice("01234"), 16),
        "dankort": ("5019", 16),
        "verve": (r.choice(["506099", "507865", "650002"]), 16),
        "hipercard": ("606282", 16),
        "jcb": ("35" + str(r.randint(28, 89)), 16),
        "unionpay17": ("62" + _d(r, 2), 17),
        "discover65": ("65", 16),
        "visa": ("4", 16),
        "mc": (str(r.randint(51, 55)), 16),
        "amex": (r.choice(["34", "37"]), 15),
        "mc2": (str(r.randint(2221, 2720)), 16),
    }[kind]
    body = prefix + _d(r, n - 1 - len(prefix))
    return body + m.luhn_digit(body), kind


def _shown(r, c):
    if len(c) == 14:
        return "%s %s %s" % (c[:4], c[4:10], c[10:])
    if len(c) == 15:
        return "%s %s %s" % (c[:4], c[4:10], c[10:])
    sep = r.choice([" ", "-", NBSP, ""])
    return sep.join(c[i:i + 4] for i in range(0, len(c), 4))


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([2, 14, 23, 38, 46, 62, 79, 81, 94, 109, 116, 128, 139, 146, 151, 159, 178,
                                      188, 193, 195, 200, 206, 212, 221]),
                            r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2a02:%s:%s:%s::%s" % (g(), g(), g(), g()),
        lambda: "2604:A880:%s:%s::%s:%s" % (g().upper(), g().upper(), g().upper(), g().upper()),
        lambda: "2406:da00:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),
        lambda: "2003:%s:%s::%s:%s" % (g(), g(), g(), g()),
        lambda: "2405:%s::%s" % (g(), g()),
        lambda: "2a0d:%s:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g(), g()),
    ])()


def _b64u(raw):
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _jwt(r):
    alg = r.choice(["EdDSA", "RS512", "ES384", "none", "HS384"])
    head = '{"typ":"%s","alg":"%s"}' % (r.choice(["JWT", "dpop+jwt", "secevent+jwt"]), alg)
    body = '{"iss":"https://idp.example.%s","sub":"%s","exp":%d,"scope":"%s"}' % (
        r.choice(["bt", "mv", "rw", "sn"]), _s(r, LOW + D, 12), r.randint(1_700_000_000, 1_900_000_000),
        r.choice(["ledger.read", "payroll", "notebook.exec"]))
    sig = {"EdDSA": 86, "RS512": 342, "ES384": 128, "none": 0, "HS384": 64}[alg]
    return "%s.%s.%s" % (_b64u(head), _b64u(body), _s(r, B64URL, sig))


def _pem_lines(r, width=64):
    return [_s(r, B64, width) for _ in range(r.randint(5, 10))] + [_s(r, B64, r.randint(8, width - 4)) + "=="]


# ------------------------------------------------------------------ items

PROSE = {
    "bo": "ང་ལ་{}",            # Tibetan
    "ti": "ብኽብረትኩም {} ",      # Tigrinya
    "dv": "މި ނަންބަރަށް {}",     # Dhivehi
    "iu": "ᐅᖃᓕᒪᒃᑲᓐᓂᕐᓗᑎᑦ {}",    # Inuktitut
    "chr": "ᎯᎠ ᏗᎦᏃᏣᎳᏅᎯ {}",     # Cherokee
    "jv": "Mangga hubungi {} ",
    "ceb": "Palihug kontaka {} ",
    "wo": "Bindal ci {} ",
    "rw": "Mwandikire kuri {} ",
    "rm": "Scrivai a {} ",
    "ba": "Бәйләнеш өсөн: {} ",
}


def _prose(r, doc, value, cls, form_prefix, word):
    lang = r.choice(sorted(PROSE))
    lead, tail = PROSE[lang].split("{}")
    _put(doc, lead + word + " ", value, cls, "%s_%s" % (form_prefix, lang), tail + "\n")


def i_email(r, doc, m):
    local = r.choice(["tenzin.dorji", "aklilu.t", "aishath.n", "qavvik", "wohali", "sri.wahyuni", "junrey.b",
                      "moussa.ndiaye", "uwase.g", "gian-reto", "aigul_k", "billing+q4", "ops.team", "x9"])
    dom = r.choice(["druk.example.bt", "asmara.example.er", "male.example.mv", "iqaluit.example.ca",
                    "tahlequah.example.us", "yogya.example.id", "cebu.example.ph", "dakar.example.sn",
                    "kigali.example.rw", "chur.example.ch", "ufa.example.ru", "ledger.example.photography",
                    "mail.example.co.uk", "EXAMPLE.ORG"])
    form = r.choice(["ical_attendee", "ical_organizer", "ofx_signon", "beancount_meta", "iif_row", "ipynb_stream",
                     "plist_string", "gradle_prop", "op_item", "bw_item", "keepass_xml", "hiera", "chef_bag",
                     "wazuh_alert", "rocketchat", "teams_card", "signal_cli", "wecom_hook", "thrift_debug",
                     "cbor_diag", "quoted_local", "idn_local", "prose"])
    e = "%s@%s" % (local, dom)
    if form == "quoted_local":
        _put(doc, "Reply-To: ", "\"%s\"@%s" % (local.replace(".", " "), dom), "email", form, "\n")
        return
    if form == "idn_local":
        _put(doc, "Kontakt: ", "%s@%s" % (r.choice(["josé.núñez", "müller", "søren", "ĝisdato"]), dom), "email", form,
             "\n")
        return
    if form == "prose":
        _prose(r, doc, e, "email", "prose", "email")
        return
    lead, tail = {
        "ical_attendee": ("BEGIN:VEVENT\nATTENDEE;CN=Tenzin Dorji;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION:mailto:",
                          "\nEND:VEVENT\n"),
        "ical_organizer": ("ORGANIZER;CN=Payroll:MAILTO:", "\nSUMMARY:Quarter close\n"),
        "ofx_signon": ("<SONRS><STATUS><CODE>0</CODE></STATUS><USERID>", "</USERID></SONRS>\n"),
        "beancount_meta": ("2026-12-01 open Liabilities:CreditCard USD\n  contact: \"", "\"\n"),
        "iif_row": ("!CUST\tNAME\tEMAIL\nCUST\tDruk Traders\t", "\n"),
        "ipynb_stream": ("{\"output_type\": \"stream\", \"name\": \"stdout\", \"text\": [\"owner: ", "\\n\"]}\n"),
        "plist_string": ("<key>SupportEmail</key>\n<string>", "</string>\n"),
        "gradle_prop": ("ossrhUsername=", "\n"),
        "op_item": ("{\"id\":\"", "\"}\n"),
        "bw_item": ("{\"object\":\"item\",\"login\":{\"username\":\"", "\"}}\n"),
        "keepass_xml": ("<String><Key>UserName</Key><Value>", "</Value></String>\n"),
        "hiera": ("profile::mail::relay_sender: '", "'\n"),
        "chef_bag": ("{\"id\": \"alerts\", \"notify\": [\"", "\"]}\n"),
        "wazuh_alert": ("{\"rule\":{\"id\":\"5715\"},\"data\":{\"dstuser\":\"", "\"}}\n"),
        "rocketchat": ("POST /hooks/abc {\"text\": \"account created for ", "\"}\n"),
        "teams_card": ("{\"type\":\"TextBlock\",\"text\":\"Escalate to ", "\"}\n"),
        "signal_cli": ("Envelope from: \u201cTenzin\u201d (device: 1)\nBody: write to ", " please\n"),
        "wecom_hook": ("{\"msgtype\":\"text\",\"text\":{\"content\":\"联系人 ", "\"}}\n"),
        "thrift_debug": ("User(id=4412, name='Aigul', email='", "', active=True)\n"),
        "cbor_diag": ("{1: 4412, 2: \"", "\", 3: true}\n"),
    }[form]
    if form == "op_item":
        lead = "{\"id\":\"%s\",\"fields\":[{\"id\":\"username\",\"value\":\"" % _s(r, LOW + D, 26)
        tail = "\"}]}\n"
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    a, x, s = "%s%s" % (_nz(r), _d(r, 2)), "%s%s" % (_nz(r), _d(r, 2)), _d(r, 4)
    form = r.choice(["tel_href", "ical_tel", "beancount_meta", "plist_string", "keepass_xml", "bw_identity",
                     "signal_cli", "teams_card", "thrift_debug", "cbor_diag", "wazuh_alert", "nacha_addenda",
                     "bt_prose", "mv_prose", "rw_prose", "sn_prose", "br_mobile", "mx_mobile", "jp_mobile",
                     "kr_mobile", "ph_mobile", "ca_dashed"])
    lead, p, tail = {
        "tel_href": ("<a href=\"tel:", "+1-%s-%s-%s" % (a, x, s), "\">Call us</a>\n"),
        "ical_tel": ("ATTENDEE;CN=Front desk:tel:", "+44-20-%s-%s" % (_d(r, 4), _d(r, 4)), "\n"),
        "beancount_meta": ("2026-12-02 * \"Refund\"\n  phone: \"", "+1 (%s) %s-%s" % (a, x, s), "\"\n"),
        "plist_string": ("<key>SupportPhone</key>\n<string>", "+61 4%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3)), "</string>\n"),
        "keepass_xml": ("<String><Key>Phone</Key><Value>", "+48 %s %s %s" % (_d(r, 3), _d(r, 3), _d(r, 3)), "</Value></String>\n"),
        "bw_identity": ("{\"identity\":{\"phone\":\"", "(%s) %s-%s" % (a, x, s), "\"}}\n"),
        "signal_cli": ("$ signal-cli -u ACCOUNT send -m hi ", "+49 1%s %s" % (_d(r, 2), _d(r, 8)), "\n"),
        "teams_card": ("{\"type\":\"FactSet\",\"facts\":[{\"title\":\"On call\",\"value\":\"", "+1 %s %s %s" % (a, x, s), "\"}]}\n"),
        "thrift_debug": ("Contact(name='Uwase', phone='", "+250 78%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)), "')\n"),
        "cbor_diag": ("{\"msisdn\": \"", "+221 77 %s %s %s" % (_d(r, 3), _d(r, 2), _d(r, 2)), "\"}\n"),
        "wazuh_alert": ("{\"data\":{\"caller\":\"", "+960 7%s-%s" % (_d(r, 2), _d(r, 4)), "\"}}\n"),
        "nacha_addenda": ("705CALLBACK ", "%s%s%s" % (a, x, s), " RE INVOICE                                                   00010000001\n"),
        "bt_prose": ("ཁ་པར་ཨང་: ", "+975 17 %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "mv_prose": ("ފޯނު ނަންބަރު: ", "+960 9%s %s" % (_d(r, 2), _d(r, 4)), "\n"),
        "rw_prose": ("Terefona: ", "+250 72%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)), "\n"),
        "sn_prose": ("Nimero telefon: ", "+221 76 %s %s %s" % (_d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "br_mobile": ("WhatsApp comercial: ", "+55 (11) 9%s-%s" % (_d(r, 4), _d(r, 4)), "\n"),
        "mx_mobile": ("Celular: ", "+52 1 55 %s %s" % (_d(r, 4), _d(r, 4)), "\n"),
        "jp_mobile": ("携帯: ", "+81-90-%s-%s" % (_d(r, 4), _d(r, 4)), "\n"),
        "kr_mobile": ("휴대전화: ", "+82 10-%s-%s" % (_d(r, 4), _d(r, 4)), "\n"),
        "ph_mobile": ("Mobile no.: ", "+63 917 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "ca_dashed": ("Fax: ", "1-%s-%s-%s" % (a, x, s), "\n"),
    }[form]
    _put(doc, lead, p, "phone", form, tail, form != "nacha_addenda")


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["w2_box", "f1099_tin", "i9_field", "payroll_csv", "beancount_meta", "keepass_custom",
                     "op_item", "bw_identity", "chef_bag", "hiera", "thrift_debug", "cbor_diag", "teams_card",
                     "en_dash", "dotted", "spaced_word", "ofx_memo"])
    lead, v, tail = {
        "w2_box": ("a  Employee's social security number\n   ", dashed, "\nb  Employer identification number (EIN)\n"),
        "f1099_tin": ("RECIPIENT'S TIN\n", dashed, "\nRECIPIENT'S name\n"),
        "i9_field": ("U.S. Social Security Number: ", dashed, "\n"),
        "payroll_csv": ("EmpNo;Name;SSN;Dept\n4412;Uwase G.;", dashed, ";Finance\n"),
        "beancount_meta": ("2026-12-03 * \"Payroll\"\n  employee-ssn: \"", dashed, "\"\n"),
        "keepass_custom": ("<String><Key>SSN</Key><Value ProtectInMemory=\"True\">", dashed, "</Value></String>\n"),
        "op_item": ("{\"label\":\"social security number\",\"value\":\"", dashed, "\"}\n"),
        "bw_identity": ("{\"identity\":{\"ssn\":\"", dashed, "\"}}\n"),
        "chef_bag": ("{\"id\": \"hr-4412\", \"ssn\": \"", dashed, "\"}\n"),
        "hiera": ("hr::employee::ssn: '", dashed, "'\n"),
        "thrift_debug": ("Employee(id=4412, ssn='", dashed, "')\n"),
        "cbor_diag": ("{\"ssn\": \"", dashed, "\", \"w2\": true}\n"),
        "teams_card": ("{\"type\":\"TextBlock\",\"text\":\"SSN to verify: ", dashed, "\"}\n"),
        "en_dash": ("SSN: ", "%s\u2013%s\u2013%s" % (a, g, s), "\n"),
        "dotted": ("Soc. Sec. No. ", "%s.%s.%s" % (a, g, s), "\n"),
        "spaced_word": ("social security # ", "%s %s %s" % (a, g, s), "\n"),
        "ofx_memo": ("<STMTTRN><MEMO>IRS refund SSN ", dashed, "</MEMO></STMTTRN>\n"),
    }[form]
    _put(doc, lead, v, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = _card(r, m)
    shown = _shown(r, c)
    form = r.choice(["op_card", "bw_card", "keepass_card", "plist_string", "ipynb_stream", "thrift_debug",
                     "cbor_diag", "teams_card", "rocketchat", "wecom_hook", "line_hook", "beancount_meta",
                     "iif_row", "ofx_memo", "falco_alert", "prose"])
    if form == "prose":
        _prose(r, doc, shown, "credit_card", "prose_%s" % kind, "card")
        return
    lead, v, tail = {
        "op_card": ("{\"id\":\"ccnum\",\"type\":\"CREDIT_CARD_NUMBER\",\"label\":\"number\",\"value\":\"", c, "\"}\n"),
        "bw_card": ("{\"object\":\"item\",\"type\":3,\"card\":{\"cardholderName\":\"U. G.\",\"number\":\"", c, "\",\"expMonth\":\"11\"}}\n"),
        "keepass_card": ("<String><Key>Card Number</Key><Value>", shown, "</Value></String>\n"),
        "plist_string": ("<key>TestCardNumber</key>\n<string>", c, "</string>\n"),
        "ipynb_stream": ("{\"output_type\": \"stream\", \"text\": [\"charged card ", shown, "\\n\"]}\n"),
        "thrift_debug": ("Payment(amount=1200, card_number='", c, "')\n"),
        "cbor_diag": ("{\"pan\": \"", c, "\", \"exp\": \"11/29\"}\n"),
        "teams_card": ("{\"type\":\"TextBlock\",\"text\":\"Dispute on card ", shown, "\"}\n"),
        "rocketchat": ("{\"text\": \"card on file: ", shown, "\"}\n"),
        "wecom_hook": ("{\"msgtype\":\"text\",\"text\":{\"content\":\"卡号 ", shown, "\"}}\n"),
        "line_hook": ("{\"type\":\"text\",\"text\":\"カード番号 ", shown, "\"}\n"),
        "beancount_meta": ("2026-12-04 * \"Hotel\"\n  card: \"", shown, "\"\n"),
        "iif_row": ("!TRNS\tTRNSID\tCCNUM\nTRNS\t88\t", c, "\n"),
        "ofx_memo": ("<STMTTRN><MEMO>POS PURCHASE CARD ", c, "</MEMO></STMTTRN>\n"),
        "falco_alert": ("Warning Sensitive data in process args (proc.cmdline=charge --card ", c, " --amount 12)\n"),
    }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = m.group4(i)
    form = r.choice(["ofx_acct", "beancount_meta", "hledger_comment", "iif_row", "fedwire_4200", "bw_identity",
                     "keepass_xml", "thrift_debug", "cbor_diag", "teams_card", "lowercase", "nbsp_grouped",
                     "prose"])
    if form == "prose":
        _prose(r, doc, spaced, "iban", "prose", "IBAN")
        return
    lead, v, tail = {
        "ofx_acct": ("<BANKACCTTO><BANKID>BANQFRPP</BANKID><ACCTID>", i, "</ACCTID></BANKACCTTO>\n"),
        "beancount_meta": ("2026-12-05 open Assets:Bank:Main\n  iban: \"", i, "\"\n"),
        "hledger_comment": ("2026-12-05 Rent  ; payee-iban: ", spaced, "\n    expenses:rent   1200\n"),
        "iif_row": ("!VEND\tNAME\tBANKACCT\nVEND\tAsmara Ltd\t", i, "\n"),
        "fedwire_4200": ("{4200}D", i, "*ASMARA LTD*\n"),
        "bw_identity": ("{\"fields\":[{\"name\":\"IBAN\",\"value\":\"", i, "\"}]}\n"),
        "keepass_xml": ("<String><Key>IBAN</Key><Value>", spaced, "</Value></String>\n"),
        "thrift_debug": ("Payout(iban='", i, "', amount=1200)\n"),
        "cbor_diag": ("{\"iban\": \"", i, "\"}\n"),
        "teams_card": ("{\"title\":\"Payee account\",\"value\":\"", spaced, "\"}\n"),
        "lowercase": ("iban: ", spaced.lower(), "\n"),
        "nbsp_grouped": ("IBAN\u00a0: ", spaced.replace(" ", NBSP), "\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4(r)
    form = r.choice(["wazuh_srcip", "osquery_remote", "falco_conn", "krb5_kdc", "tnsnames", "named_acl",
                     "chrony_server", "vcl_backend", "lighttpd", "ipynb_stream", "thrift_debug", "cbor_diag",
                     "teams_card", "rocketchat", "ofx_memo", "cidr_host", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv4", "prose", "IP")
        return
    parts = {
        "wazuh_srcip": ["{\"rule\":{\"id\":\"5710\",\"level\":5},\"data\":{\"srcip\":\"", (ip, "ipv4"), "\",\"srcport\":\"52144\"}}\n"],
        "osquery_remote": ["{\"name\":\"open_sockets\",\"columns\":{\"remote_address\":\"", (ip, "ipv4"), "\",\"remote_port\":\"443\"}}\n"],
        "falco_conn": ["Notice Outbound connection (connection=", (ip2, "ipv4"), ":48122->", (ip, "ipv4"), ":4444 proc=nc)\n"],
        "krb5_kdc": ["[realms]\n  CORP.EXAMPLE = {\n    kdc = ", (ip, "ipv4"), ":88\n  }\n"],
        "tnsnames": ["ORCL =\n  (DESCRIPTION = (ADDRESS = (PROTOCOL = TCP)(HOST = ", (ip, "ipv4"), ")(PORT = 1521)))\n"],
        "named_acl": ["zone \"corp.example\" { type primary; allow-transfer { ", (ip, "ipv4"), "; }; };\n"],
        "chrony_server": ["server ", (ip, "ipv4"), " iburst minpoll 4\n"],
        "vcl_backend": ["backend default {\n    .host = \"", (ip, "ipv4"), "\";\n    .port = \"8080\";\n}\n"],
        "lighttpd": ["$HTTP[\"remoteip\"] == \"", (ip, "ipv4"), "\" { url.access-deny = ( \"\" ) }\n"],
        "ipynb_stream": ["{\"output_type\": \"stream\", \"text\": [\"connected to ", (ip, "ipv4"), "\\n\"]}\n"],
        "thrift_debug": ["Session(peer='", (ip, "ipv4"), "', port=9090)\n"],
        "cbor_diag": ["{\"addr\": \"", (ip, "ipv4"), "\"}\n"],
        "teams_card": ["{\"title\":\"Source\",\"value\":\"", (ip, "ipv4"), "\"}\n"],
        "rocketchat": ["{\"text\": \"blocked ", (ip, "ipv4"), " after 5 failures\"}\n"],
        "ofx_memo": ["<MEMO>ONLINE LOGIN FROM ", (ip, "ipv4"), "</MEMO>\n"],
        "cidr_host": ["allow ", (ip, "ipv4"), "/32;\n"],
    }[form]
    _seq(doc, form, parts)


def i_ipv6(r, doc, m):
    ip = _v6(r)
    form = r.choice(["wazuh_srcip", "osquery_remote", "falco_conn", "named_acl", "chrony_server", "vcl_backend",
                     "thrift_debug", "cbor_diag", "ipynb_stream", "slash128", "mapped_hex", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv6", "prose", "IPv6")
        return
    if form == "mapped_hex":
        _seq(doc, form, ["client ", ("::ffff:%x:%x" % (r.randint(0x0200, 0xdfff), r.randint(1, 0xfffe)), "ipv6"), " accepted\n"])
        return
    parts = {
        "wazuh_srcip": ["{\"data\":{\"srcip\":\"", (ip, "ipv6"), "\"}}\n"],
        "osquery_remote": ["{\"columns\":{\"remote_address\":\"", (ip, "ipv6"), "\"}}\n"],
        "falco_conn": ["Notice Outbound connection (connection=[", (ip, "ipv6"), "]:4444 proc=nc)\n"],
        "named_acl": ["acl trusted { ", (ip, "ipv6"), "; };\n"],
        "chrony_server": ["server ", (ip, "ipv6"), " iburst\n"],
        "vcl_backend": ["backend b6 { .host = \"", (ip, "ipv6"), "\"; }\n"],
        "thrift_debug": ["Session(peer='", (ip, "ipv6"), "')\n"],
        "cbor_diag": ["{\"addr6\": \"", (ip, "ipv6"), "\"}\n"],
        "ipynb_stream": ["{\"output_type\": \"stream\", \"text\": [\"peer ", (ip, "ipv6"), "\\n\"]}\n"],
        "slash128": ["route add ", (ip, "ipv6"), "/128 dev wg0\n"],
    }[form]
    _seq(doc, form, parts)


def i_api_key(r, doc, m):
    t = _tok(r, r.randint(24, 40))
    pw = _tok(r, r.randint(12, 20)) + r.choice(["", "!", "#", "$", "&", "*"])
    form = r.choice([
        "plist_gms", "manifest_meta", "gradle_signing", "xcconfig", "launch_settings", "web_config", "op_password",
        "bw_password", "keepass_pw", "hiera", "chef_bag", "sys_config", "runtime_exs", "named_tsig", "chrony_key",
        "rocketchat_hdr", "line_bearer", "kakao_ak", "wecom_secret", "podfile_env", "ipynb_source", "thrift_debug",
        "cbor_diag", "do_token", "linear_key", "glc_token", "pscale", "prose"])
    if form == "prose":
        _prose(r, doc, pw, "api_key", "prose", "password")
        return
    lead, v, tail = {
        "plist_gms": ("<key>API_KEY</key>\n<string>", "AIza" + _s(r, B64URL, 35), "</string>\n"),
        "manifest_meta": ("<meta-data android:name=\"com.example.sdk.ApiKey\" android:value=\"", t, "\"/>\n"),
        "gradle_signing": ("signing.keyId=24875D73\nsigning.password=", pw, "\n"),
        "xcconfig": ("ANALYTICS_WRITE_KEY = ", t, "\n"),
        "launch_settings": ("\"environmentVariables\": {\n  \"PAYMENTS__APIKEY\": \"", t, "\"\n}\n"),
        "web_config": ("<appSettings>\n  <add key=\"SmtpPassword\" value=\"", pw, "\" />\n</appSettings>\n"),
        "op_password": ("{\"id\":\"password\",\"type\":\"CONCEALED\",\"purpose\":\"PASSWORD\",\"value\":\"", pw, "\"}\n"),
        "bw_password": ("{\"object\":\"item\",\"login\":{\"username\":\"svc\",\"password\":\"", pw, "\"}}\n"),
        "keepass_pw": ("<String><Key>Password</Key><Value ProtectInMemory=\"True\">", pw, "</Value></String>\n"),
        "hiera": ("profile::db::password: '", pw, "'\n"),
        "chef_bag": ("{\"id\": \"mysql\", \"root_password\": \"", pw, "\"}\n"),
        "sys_config": ("[{my_app, [{api_secret, \"", t, "\"}]}].\n"),
        "runtime_exs": ("config :my_app, MyAppWeb.Endpoint,\n  secret_key_base: \"", _s(r, AN, 64), "\"\n"),
        "named_tsig": ("key \"xfer\" {\n    algorithm hmac-sha256;\n    secret \"", base64.b64encode(bytes(r.randrange(256) for _ in range(32))).decode(), "\";\n};\n"),
        "chrony_key": ("# /etc/chrony.keys\n1 SHA256 HEX:", _s(r, UHEX, 64), "\n"),
        "rocketchat_hdr": ("curl -H \"X-Auth-Token: ", _s(r, B64URL, 43), "\" -H \"X-User-Id: aobEdbYhXfu5hkeqG\" https://chat.example/api/v1/me\n"),
        "line_bearer": ("Authorization: Bearer ", _s(r, B64, 170) + "=", "\n"),
        "kakao_ak": ("Authorization: KakaoAK ", _s(r, HEX, 32), "\n"),
        "wecom_secret": ("GET /cgi-bin/gettoken?corpid=ww1a2b3c4d5e6f7a8b&corpsecret=", _s(r, B64URL, 43), "\n"),
        "podfile_env": ("ENV['COCOAPODS_TRUNK_TOKEN'] = '", _s(r, HEX, 32), "'\n"),
        "ipynb_source": ("{\"cell_type\": \"code\", \"source\": [\"openai.api_key = \\\"", "sk-proj-" + _s(r, B64URL, 48), "\\\"\\n\"]}\n"),
        "thrift_debug": ("Credentials(client_id='kiosk', client_secret='", t, "')\n"),
        "cbor_diag": ("{\"token\": \"", t, "\"}\n"),
        "do_token": ("DIGITALOCEAN_ACCESS_TOKEN=", "dop_v1_" + _s(r, HEX, 64), "\n"),
        "linear_key": ("LINEAR_API_KEY=", "lin_api_" + _s(r, AN, 40), "\n"),
        "glc_token": ("GRAFANA_CLOUD_TOKEN=", "glc_" + _s(r, B64URL, 60) + "==", "\n"),
        "pscale": ("PLANETSCALE_SERVICE_TOKEN=", "pscale_tkn_" + _s(r, AN + "_", 43), "\n"),
    }[form]
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["op_field", "bw_note", "keepass_xml", "ipynb_stream", "thrift_debug", "cbor_diag",
                     "teams_hdr", "line_hook", "wazuh_alert", "falco_alert", "plist_string", "gradle_prop",
                     "prose"])
    j = _jwt(r)
    if form == "prose":
        _prose(r, doc, j, "jwt", "prose", "token")
        return
    lead, tail = {
        "op_field": ("{\"id\":\"credential\",\"type\":\"CONCEALED\",\"value\":\"", "\"}\n"),
        "bw_note": ("{\"notes\":\"refresh with ", "\"}\n"),
        "keepass_xml": ("<String><Key>IdToken</Key><Value>", "</Value></String>\n"),
        "ipynb_stream": ("{\"output_type\": \"execute_result\", \"data\": {\"text/plain\": [\"'", "'\"]}}\n"),
        "thrift_debug": ("AuthContext(token='", "')\n"),
        "cbor_diag": ("{\"jwt\": \"", "\"}\n"),
        "teams_hdr": ("POST https://smba.example/v3/conversations\nAuthorization: Bearer ", "\n"),
        "line_hook": ("{\"events\":[],\"destination\":\"U4af4980629\",\"id_token\":\"", "\"}\n"),
        "wazuh_alert": ("{\"data\":{\"http\":{\"authorization\":\"Bearer ", "\"}}}\n"),
        "falco_alert": ("Warning Token in env (proc.env=API_JWT=", " proc=curl)\n"),
        "plist_string": ("<key>DemoToken</key>\n<string>", "</string>\n"),
        "gradle_prop": ("ci.deployToken=", "\n"),
    }[form]
    _put(doc, lead, j, "jwt", form, tail)


def i_private_key(r, doc, m):
    kind = r.choice(["", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED "])
    form = r.choice(["ipynb_lines", "kotlin_margin", "rust_raw", "op_notes", "bw_notes", "keepass_xml",
                     "chef_bag", "hiera_block", "thrift_debug", "plist_data", "web_config", "prose"])
    head, foot = "-----BEGIN %sPRIVATE KEY-----" % kind, "-----END %sPRIVATE KEY-----" % kind
    lines = [head] + _pem_lines(r) + [foot]
    k = "\n".join(lines)
    esc = "\\n".join(lines)
    if form == "ipynb_lines":
        v = "\\n\",\n    \"".join(lines)
        lead, tail = "{\"output_type\": \"stream\", \"name\": \"stdout\", \"text\": [\n    \"", "\\n\"\n]}\n"
    elif form == "kotlin_margin":
        v = "\n    |".join(lines)
        lead, tail = "val pem = \"\"\"\n    |", "\n    \"\"\".trimMargin()\n"
    elif form == "rust_raw":
        lead, v, tail = "const KEY: &str = r#\"", k, "\"#;\n"
    elif form == "op_notes":
        lead, v, tail = "{\"id\":\"notesPlain\",\"type\":\"STRING\",\"value\":\"", esc, "\"}\n"
    elif form == "bw_notes":
        lead, v, tail = "{\"object\":\"item\",\"type\":2,\"notes\":\"", esc, "\"}\n"
    elif form == "keepass_xml":
        lead, v, tail = "<String><Key>Notes</Key><Value>", k, "</Value></String>\n"
    elif form == "chef_bag":
        lead, v, tail = "{\"id\": \"tls\", \"key\": \"", esc, "\"}\n"
    elif form == "hiera_block":
        v = "\n  ".join(lines)
        lead, tail = "profile::tls::key: |\n  ", "\n"
    elif form == "thrift_debug":
        lead, v, tail = "TlsConfig(key_pem='", esc, "')\n"
    elif form == "plist_data":
        v = "&#10;".join(lines)
        lead, tail = "<key>ClientKey</key>\n<string>", "</string>\n"
    elif form == "web_config":
        v = "&#xA;".join(lines)
        lead, tail = "<add key=\"SigningKey\" value=\"", "\" />\n"
    else:
        lang = r.choice(sorted(PROSE))
        lead, tail = PROSE[lang].split("{}")
        lead, v, tail = lead + "key:\n", k, "\n" + tail + "\n"
        form = "prose_" + lang
    _put(doc, lead, v, "private_key", "%s_%s" % (form, kind.strip().lower() or "pkcs8"), tail)


def i_url(r, doc, m):
    pw = _tok(r, r.randint(10, 22)) + r.choice(["", "", "!", "%21", "%3A" + _d(r, 2), "~", "_"])
    form = r.choice(["rediss", "nats", "clickhouse", "sqlserver", "couchbase", "git_https", "ldaps", "amqps",
                     "sftp", "runtime_exs", "sys_config", "web_config", "launch_settings", "gradle_repo",
                     "podfile_source", "ipynb_source", "teams_card", "prose"])
    if form == "prose":
        lang = r.choice(sorted(PROSE))
        lead, tail = PROSE[lang].split("{}")
        _put(doc, lead + "https://ops:", pw, "url_credentials", "prose_" + lang, "@files.example.net/ " + tail + "\n")
        return
    lead, tail = {
        "rediss": ("REDIS_URL=rediss://default:", "@cache.example.net:6380/0\n"),
        "nats": ("nats.url = \"nats://orders:", "@nats.example.net:4222\"\n"),
        "clickhouse": ("CLICKHOUSE_DSN=clickhouse://reader:", "@ch.example.net:9440/analytics?secure=true\n"),
        "sqlserver": ("\"DefaultConnection\": \"sqlserver://sa:", "@mssql.example.net:1433?database=app\"\n"),
        "couchbase": ("cb.connect(\"couchbases://admin:", "@cb.example.net\")\n"),
        "git_https": ("pip install git+https://deploy:", "@git.example.net/team/lib.git@v1.2\n"),
        "ldaps": ("ldap_uri = ldaps://cn=reader,dc=corp:", "@ldap.example.net:636\n"),
        "amqps": ("{rabbit_uri, \"amqps://ledger:", "@mq.example.net:5671/%2F\"}.\n"),
        "sftp": ("lftp sftp://uploader:", "@sftp.example.net/inbound\n"),
        "runtime_exs": ("config :my_app, MyApp.Repo, url: \"ecto://app:", "@db.example.net/app_prod\"\n"),
        "sys_config": ("{kafka_url, \"kafka+ssl://svc:", "@kafka.example.net:9093\"}\n"),
        "web_config": ("<add name=\"Queue\" connectionString=\"amqp://svc:", "@mq.example.net/\" />\n"),
        "launch_settings": ("\"ELASTIC_URL\": \"https://elastic:", "@es.example.net:9243\"\n"),
        "gradle_repo": ("maven { url \"https://ci:", "@nexus.example.net/repository/releases\" }\n"),
        "podfile_source": ("source 'https://pods:", "@specs.example.net/Specs.git'\n"),
        "ipynb_source": ("{\"cell_type\": \"code\", \"source\": [\"engine = create_engine('postgresql://analyst:", "@dw.example.net/dw')\\n\"]}\n"),
        "teams_card": ("{\"type\":\"TextBlock\",\"text\":\"share: https://guest:", "@share.example.net/q4\"}\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def i_look(r, doc, m):
    q = r.randint
    kind = r.choice([
        "ofx_fitid", "nacha_trace", "fedwire_imad", "ical_uid", "falco_time", "wecom_msgid", "teams_meeting",
        "op_item_id", "keepass_uuid", "android_sha1", "go_module", "docker_digest", "fc_wwn", "ptp_clock",
        "cisco_mac", "money_dots", "kr_brn", "us_ein", "isbn13", "br_cep", "boleto", "upi_ref", "firebase_app",
        "ipfs_cid", "nostr_npub", "osquery_time", "wazuh_rule", "ipynb_exec", "bundle_version", "version_code",
        "xcode_team", "beancount_amount", "iif_trnsid", "ical_dtstamp", "kotlin_ns", "line_user", "jp_postal",
        "se_orgnr", "order_ssn_shape", "invoice_nanp"])
    hexid = lambda n: _s(r, HEX, n)
    lead, v, tail = {
        "ofx_fitid": ("<FITID>", _d(r, 22), "</FITID>\n"),
        "nacha_trace": ("6221210002481234567890     0000012000ID-4412        DRUK TRADERS            0", _d(r, 15), "\n"),
        "fedwire_imad": ("{1520}", "20261206%s%s%06d" % (_s(r, UP, 4), _s(r, UP + D, 4), q(0, 999999)), "\n"),
        "ical_uid": ("UID:", "%s-%s@calendar.example.net" % (_d(r, 8), hexid(12)), "\n"),
        "falco_time": ("{\"output_fields\":{\"evt.time\":", str(q(10 ** 18, 2 * 10 ** 18)), "}}\n"),
        "wecom_msgid": ("{\"msgid\":\"", str(q(10 ** 18, 9 * 10 ** 18)), "\"}\n"),
        "teams_meeting": ("Meeting ID: ", "%d %03d %03d %03d" % (q(200, 499), q(0, 999), q(0, 999), q(0, 999)), "\nPasscode: " + _s(r, AN, 6) + "\n"),
        "op_item_id": ("op item get ", _s(r, LOW + D, 26), " --fields label=username\n"),
        "keepass_uuid": ("<UUID>", base64.b64encode(bytes(q(0, 255) for _ in range(16))).decode(), "</UUID>\n"),
        "android_sha1": ("SHA1: ", ":".join(_s(r, UHEX, 2) for _ in range(20)), "\n"),
        "go_module": ("require ", "golang.org/x/net@v0.%d.%d" % (q(10, 40), q(0, 9)), "\n"),
        "docker_digest": ("image: ", "registry.example.net/app@sha256:" + hexid(64), "\n"),
        "fc_wwn": ("port_name: ", ":".join(_s(r, HEX, 2) for _ in range(8)), "\n"),
        "ptp_clock": ("ptp4l[812]: selected best master clock ", "%s.%s.%s" % (hexid(6), "fffe", hexid(6)), "\n"),
        "cisco_mac": ("  10    ", "%s.%s.%s" % (hexid(4), hexid(4), hexid(4)), "    DYNAMIC     Gi1/0/12\n"),
        "money_dots": ("Total: COP ", "%d.%03d.%03d.%03d" % (q(1, 9), q(0, 999), q(0, 999), q(0, 999)), "\n"),
        "kr_brn": ("사업자등록번호: ", "%03d-%02d-%05d" % (q(100, 899), q(10, 99), q(0, 99999)), "\n"),
        "us_ein": ("Employer identification number (EIN) ", "%02d-%07d" % (q(10, 99), q(0, 9999999)), "\n"),
        "isbn13": ("ISBN ", "978-%d-%03d-%05d-%d" % (q(0, 9), q(0, 999), q(0, 99999), q(0, 9)), "\n"),
        "br_cep": ("CEP ", "%05d-%03d" % (q(1000, 99999), q(0, 999)), "\n"),
        "boleto": ("Linha digitável: ", "%s.%s %s.%s %s.%s %s %s" % (_d(r, 5), _d(r, 5), _d(r, 5), _d(r, 6), _d(r, 5), _d(r, 6), _d(r, 1), _d(r, 14)), "\n"),
        "upi_ref": ("UPI Ref No. ", _d(r, 12), "\n"),
        "firebase_app": ("\"mobilesdk_app_id\": \"", "1:%d:android:%s" % (q(10 ** 11, 10 ** 12 - 1), hexid(16)), "\"\n"),
        "ipfs_cid": ("ipfs://", "bafybei" + _s(r, "abcdefghijklmnopqrstuvwxyz234567", 52), "\n"),
        "nostr_npub": ("nostr:", "npub1" + _s(r, "qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58), "\n"),
        "osquery_time": ("\"unixTime\":", str(q(1_700_000_000, 1_900_000_000)), ",\n"),
        "wazuh_rule": ("\"rule\":{\"id\":\"", str(q(500, 99999)), "\"}\n"),
        "ipynb_exec": ("\"execution_count\": ", str(q(1, 400)), ",\n"),
        "bundle_version": ("<key>CFBundleVersion</key>\n<string>", "%d.%d.%d.%d" % (q(1, 9), q(0, 40), q(0, 9), q(100, 999)), "</string>\n"),
        "version_code": ("versionCode ", str(q(10 ** 8, 2 * 10 ** 9)), "\n"),
        "xcode_team": ("DEVELOPMENT_TEAM = ", _s(r, UP + D, 10), "\n"),
        "beancount_amount": ("  Assets:Bank  ", "-%d,%03d.%02d" % (q(1, 99), q(0, 999), q(0, 99)), " USD\n"),
        "iif_trnsid": ("TRNSID\t", "%X-%d" % (q(0x100, 0xFFFF), q(10 ** 9, 2 * 10 ** 9)), "\n"),
        "ical_dtstamp": ("DTSTAMP:", "2026%02d%02dT%02d%02d%02dZ" % (q(1, 12), q(1, 28), q(0, 23), q(0, 59), q(0, 59)), "\n"),
        "kotlin_ns": ("import ", "kotlinx.coroutines.flow.%s" % r.choice(["Flow", "map", "collect"]), "\n"),
        "line_user": ("\"userId\":\"", "U" + hexid(32), "\"\n"),
        "jp_postal": ("〒", "%03d-%04d" % (q(100, 999), q(0, 9999)), " 東京都\n"),
        "se_orgnr": ("Org.nr ", "%06d-%04d" % (q(100000, 999999), q(0, 9999)), "\n"),
        "order_ssn_shape": ("Bestellnummer ", "%03d-%02d-%04d" % (q(100, 899), q(10, 99), q(1000, 9999)), "\n"),
        "invoice_nanp": ("Rechnung Nr. ", "%d-%03d-%04d" % (q(200, 999), q(200, 999), q(1000, 9999)), "\n"),
    }[kind]
    doc.t(lead)
    doc.look(v, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["\n", "# ----\n", ";; ----\n", "%% ----\n", "\n\n", "// ----\n", "END:VEVENT\n"]


def heldout13_doc(r, doc, m):
    """One text of the fourteenth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
