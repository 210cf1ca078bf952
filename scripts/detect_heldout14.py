"""The fourteenth held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout14`; not run on its own.

A fifteenth template family, written and committed before any detector
change of the twelfth round (the round that tunes on heldout13), from
real-world formats and not from the detectors' code. The session that
wrote it knew heldout13's per-class figures as its brief named them and
grepped the thirteen earlier families only for surroundings to keep
clear of; only its summary and per-class table are looked at until the
round's final measurement.

Surroundings that no other family writes, most from mail clients, VPN
and RADIUS servers, telephony, OS installers, data tooling, package
managers and document formats: Sieve scripts, `muttrc`, NetworkManager
`.nmconnection` keyfiles, strongSwan `ipsec.secrets`, FreeRADIUS
`clients.conf`, Asterisk `sip.conf`/`pjsip.conf`, dbt `profiles.yml`,
Spring `application.yml`, Kickstart, cloud-init `user-data`, Debian
preseed, Mercurial `hgrc`, `.gemrc`, Cargo `credentials.toml`, Nix
expressions, Emacs org-mode property drawers, Fortran namelists, RTF,
troff man pages, reStructuredText, `sudoers`, Procfiles, `journalctl -o
json`, the MySQL slow query log, X12 837 claims; string literals of
Dart, Swift, Objective-C, Visual Basic, Delphi and Ada; prose in Irish,
Faroese, Luxembourgish, Estonian, Latvian, Lithuanian, Albanian,
Macedonian, Belarusian, Kazakh, Uzbek, Pashto, Gujarati, Kannada,
Malayalam, Punjabi, Maori, Zulu and Somali. Values in shapes the earlier
families did not write: emails after a display name in a `muttrc`
`from` or in an RTF hyperlink; phones of Ireland, the Baltics, Albania,
North Macedonia, Belarus, Kazakhstan, Uzbekistan, Pakistan, New
Zealand, South Africa, Somalia, Morocco, with `(0)` trunk prefixes and
SIP caller ids; SSNs as X12 `REF*SY` and `NM1 ... *34*` ids; Troy, Elo,
RuPay, 19-digit Maestro and Visa cards, cards grouped by dots; IBANs of
Estonia, Latvia, Lithuania, Albania, North Macedonia, Belarus,
Kazakhstan, Iraq, Pakistan, Ukraine, Georgia, Azerbaijan, Kosovo, Faroe
Islands, Iceland, Luxembourg, Ireland, Malta, Egypt in camt.053 XML and
the surroundings above; IPv4 in `ipsec.secrets`, RADIUS clients,
preseed, Kickstart, Nix; IPv6 with leading zeros and IPv4-mapped
dotted tails; keys of crates.io, RubyGems, Databricks, Pulumi, Shopify,
Doppler and plain passwords in every config above; JWTs in cookies and
slow-log queries; private keys in Nix `''` strings, cloud-init blocks,
Dart raw strings, org-mode source blocks, RST literal blocks, RTF
`\\par` lines and troff `.nf` blocks; `smb://`, `imaps://`, `mqtt://`,
`socks5://`, `rsync://`, `wss://`, `neo4j+s://` URLs with a password.

Look-alikes no family wrote as such a set: SIP `Call-ID`s, Kerberos
service principals, systemd template units (`x@y.service`), SSH public
key comments, Message-IDs; IMEIs and ICCIDs (Luhn-valid), ORCIDs,
French SIRETs, ISO 6346 container numbers, IATA ticket numbers;
US routing numbers and X12 `REF*EI` EINs (nine digits), NPIs (ten
digits); EU VAT ids, LEIs, ISINs, BICs; Nix store paths and SRI hashes,
journald cursors and boot ids, RADIUS session ids, Windows SIDs,
registry GUIDs, MySQL GTIDs, slow-log times, public keys and
certificates, four-part Nix versions.

It reuses only the value makers of `detect_corpus.py` (group4, luhn
digit) and the small ones of `detect_values.py`. Its texts are drawn
from their own seed (`detect_corpus.py` offsets the split's seed by
14014). It is the project's own, like the others.
"""
import base64

from detect_values import AN, D, HEX, UHEX, UP, LOW, B64, B64URL, _d, _nz, _put, _s, _seq, _ssn, _tok, with_check, family_doc


def _iban(r):
    country, bban = r.choice([
        ("EE", lambda: _d(r, 16)),
        ("LV", lambda: _s(r, UP, 4) + _s(r, UP + D, 13)),
        ("LT", lambda: _d(r, 16)),
        ("AL", lambda: _d(r, 8) + _s(r, UP + D, 16)),
        ("MK", lambda: _d(r, 3) + _s(r, UP + D, 10) + _d(r, 2)),
        ("BY", lambda: _s(r, UP + D, 4) + _d(r, 4) + _s(r, UP + D, 16)),
        ("KZ", lambda: _d(r, 3) + _s(r, UP + D, 13)),
        ("IQ", lambda: _s(r, UP, 4) + _d(r, 15)),
        ("PK", lambda: _s(r, UP, 4) + _s(r, UP + D, 16)),
        ("UA", lambda: _d(r, 6) + _s(r, UP + D, 19)),
        ("GE", lambda: _s(r, UP, 2) + _d(r, 16)),
        ("AZ", lambda: _s(r, UP, 4) + _s(r, UP + D, 20)),
        ("XK", lambda: _d(r, 16)),
        ("FO", lambda: _d(r, 14)),
        ("IS", lambda: _d(r, 22)),
        ("LU", lambda: _d(r, 3) + _s(r, UP + D, 13)),
        ("IE", lambda: _s(r, UP, 4) + _d(r, 14)),
        ("MT", lambda: _s(r, UP, 4) + _d(r, 5) + _s(r, UP + D, 18)),
        ("EG", lambda: _d(r, 25)),
    ])
    return with_check(country, bban())


def _card(r, m):
    """A card of a brand or length no family named, with its Luhn digit."""
    kind = r.choice(["troy", "elo", "rupay", "maestro19", "visa19", "visa", "mc", "amex", "discover", "jcb"])
    prefix, n = {
        "troy": ("9792", 16),
        "elo": (r.choice(["401178", "438935", "504175", "506699", "636297", "650031"]), 16),
        "rupay": (r.choice(["6521", "6522", "6081", "508"]), 16),
        "maestro19": (r.choice(["6759", "6761", "5018", "5020"]), 19),
        "visa19": ("4", 19),
        "visa": ("4", 16),
        "mc": (str(r.randint(51, 55)), 16),
        "amex": (r.choice(["34", "37"]), 15),
        "discover": ("6011", 16),
        "jcb": ("35" + str(r.randint(28, 89)), 16),
    }[kind]
    body = prefix + _d(r, n - 1 - len(prefix))
    return body + m.luhn_digit(body), kind


def _shown(r, c):
    if len(c) == 15:
        return "%s %s %s" % (c[:4], c[4:10], c[10:])
    if len(c) == 19:
        return r.choice([c, "%s %s %s %s %s" % (c[:4], c[4:8], c[8:12], c[12:16], c[16:])])
    sep = r.choice([" ", "-", ".", ""])
    return sep.join(c[i:i + 4] for i in range(0, len(c), 4))


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([3, 18, 31, 37, 45, 52, 77, 85, 91, 103, 134, 141, 157, 163, 176, 185, 197,
                                      203, 213, 217]),
                            r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    z = lambda: "%04x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2a01:%s:%s:%s:%s:%s:%s:%s" % (z(), z(), z(), z(), z(), z(), z()),
        lambda: "2620:%s:%s::%s" % (g(), g(), g()),
        lambda: "2a05:d018:%s:%s:%s::%s" % (g(), g(), g(), g()),
        lambda: "2804:%s:%s::%s:%s" % (g(), g(), g(), g()),
        lambda: "::ffff:%s" % _v4(r),
        lambda: "2400:CB00:%s::%s" % (g().upper(), g().upper()),
    ])()


def _b64u(raw):
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _jwt(r):
    alg = r.choice(["RS256", "PS256", "ES256", "HS512"])
    head = '{"alg":"%s","kid":"%s","typ":"JWT"}' % (alg, _s(r, LOW + D, 10))
    body = '{"sub":"%d","aud":"%s","iat":%d,"roles":["%s"]}' % (
        r.randint(1000, 99999), r.choice(["radius", "pbx", "dbt-cloud", "mailer"]), r.randint(1_700_000_000, 1_900_000_000),
        r.choice(["agent", "reader", "ops"]))
    sig = {"RS256": 342, "PS256": 342, "ES256": 86, "HS512": 86}[alg]
    return "%s.%s.%s" % (_b64u(head), _b64u(body), _s(r, B64URL, sig))


def _pem_lines(r, width=64):
    return [_s(r, B64, width) for _ in range(r.randint(5, 9))] + [_s(r, B64, r.randint(8, width - 4)) + "="]


# ------------------------------------------------------------------ items

PROSE = {
    "ga": "Déan teagmháil le {} ",            # Irish
    "fo": "Set teg í samband við {} ",        # Faroese
    "lb": "Kontaktéiert w.e.g. {} ",          # Luxembourgish
    "et": "Palun võtke ühendust: {} ",        # Estonian
    "lv": "Lūdzu, sazinieties: {} ",          # Latvian
    "lt": "Prašome susisiekti: {} ",          # Lithuanian
    "sq": "Ju lutem kontaktoni {} ",          # Albanian
    "mk": "Ве молиме контактирајте {} ",       # Macedonian
    "be": "Калі ласка, звяжыцеся: {} ",       # Belarusian
    "kk": "Байланыс үшін: {} ",               # Kazakh
    "uz": "Iltimos, bog'laning: {} ",          # Uzbek
    "ps": "مهرباني وکړئ اړیکه ونیسئ {} ",      # Pashto
    "gu": "કૃપા કરીને સંપર્ક કરો {} ",          # Gujarati
    "kn": "ದಯವಿಟ್ಟು ಸಂಪರ್ಕಿಸಿ {} ",            # Kannada
    "ml": "ദയവായി ബന്ധപ്പെടുക {} ",           # Malayalam
    "pa": "ਕਿਰਪਾ ਕਰਕੇ ਸੰਪਰਕ ਕਰੋ {} ",          # Punjabi
    "mi": "Tēnā whakapā atu ki {} ",          # Maori
    "zu": "Sicela uxhumane no {} ",           # Zulu
    "so": "Fadlan la xiriir {} ",             # Somali
}


def _prose(r, doc, value, cls, form_prefix, word):
    lang = r.choice(sorted(PROSE))
    lead, tail = PROSE[lang].split("{}")
    _put(doc, lead + word + " ", value, cls, "%s_%s" % (form_prefix, lang), tail + "\n")


def i_email(r, doc, m):
    local = r.choice(["saoirse.nic", "joannes.h", "jemp.weber", "kadri.tamm", "ilze.b", "ruta.k", "arben.h",
                      "biljana.s", "aliaksei", "aigerim.n", "dilshod_r", "noc-oncall", "billing.eu", "r2d"])
    dom = r.choice(["galway.example.ie", "torshavn.example.fo", "esch.example.lu", "tartu.example.ee",
                    "riga.example.lv", "kaunas.example.lt", "tirana.example.al", "ohrid.example.mk",
                    "minsk.example.by", "almaty.example.kz", "samarkand.example.uz", "voip.example.net",
                    "Radius.Example.COM", "mail.example.gov.uk"])
    e = "%s@%s" % (local, dom)
    form = r.choice(["sieve_redirect", "sieve_vacation", "muttrc_from", "nm_identity", "radius_user",
                     "pjsip_contact", "dbt_profile", "spring_yml", "kickstart_ks", "cloud_init", "hgrc_user",
                     "gemrc", "nix_expr", "org_prop", "fortran_nml", "rtf_link", "troff", "rst_field",
                     "journal_json", "dart_const", "swift_let", "objc_str", "vb_dim", "delphi_const", "prose"])
    if form == "prose":
        _prose(r, doc, e, "email", "prose", "e-mail")
        return
    lead, tail = {
        "sieve_redirect": ("if header :contains \"subject\" \"invoice\" {\n  redirect \"", "\";\n}\n"),
        "sieve_vacation": ("vacation :days 7 :from \"", "\" \"Out of office\";\n"),
        "muttrc_from": ("set from = \"Saoirse Nic <", ">\"\n"),
        "nm_identity": ("[802-1x]\neap=peap;\nidentity=", "\nphase2-auth=mschapv2\n"),
        "radius_user": ("Sent Access-Request Id 42\n  User-Name = \"", "\"\n  NAS-Port = 0\n"),
        "pjsip_contact": ("[alice]\ntype=endpoint\nmailboxes=", "\n"),
        "dbt_profile": ("analytics:\n  outputs:\n    prod:\n      type: snowflake\n      user: ", "\n"),
        "spring_yml": ("spring:\n  mail:\n    username: ", "\n"),
        "kickstart_ks": ("%post\necho 'root: ", "' >> /etc/aliases\n%end\n"),
        "cloud_init": ("#cloud-config\nusers:\n  - name: ops\n    gecos: ", "\n"),
        "hgrc_user": ("[ui]\nusername = Kadri Tamm <", ">\n"),
        "gemrc": ("---\n:email: ", "\n"),
        "nix_expr": ("  security.acme.defaults.email = \"", "\";\n"),
        "org_prop": ("* Kadri Tamm\n  :PROPERTIES:\n  :EMAIL:    ", "\n  :END:\n"),
        "fortran_nml": ("&contact\n  owner = '", "'\n/\n"),
        "rtf_link": ("{\\field{\\*\\fldinst HYPERLINK \"mailto:", "\"}{\\fldrslt write to us}}\\par\n"),
        "troff": (".SH AUTHOR\nWritten by Ruta K.\n.MT ", "\n.ME .\n"),
        "rst_field": (":Author: Ilze B.\n:Contact: ", "\n"),
        "journal_json": ("{\"SYSLOG_IDENTIFIER\":\"postfix/smtp\",\"MESSAGE\":\"to=<", ">, relay=none, status=deferred\"}\n"),
        "dart_const": ("const String supportEmail = '", "';\n"),
        "swift_let": ("let feedbackAddress = \"", "\"\n"),
        "objc_str": ("NSString *recipient = @\"", "\";\n"),
        "vb_dim": ("Dim mailTo As String = \"", "\"\n"),
        "delphi_const": ("const\n  AdminMail = '", "';\n"),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    a, x, s = "%s%s" % (_nz(r), _d(r, 2)), "%s%s" % (_nz(r), _d(r, 2)), _d(r, 4)
    form = r.choice(["ie_mobile", "ee_mobile", "lv_mobile", "lt_mobile", "al_mobile", "mk_mobile", "by_mobile",
                     "kz_mobile", "uz_mobile", "pk_mobile", "nz_mobile", "za_mobile", "so_mobile", "ma_mobile",
                     "gb_trunk", "de_trunk", "sip_callerid", "pjsip_tel", "radius_calling", "org_prop", "rtf_cell",
                     "dart_const", "vb_dim", "us_plain"])
    lead, p, tail = {
        "ie_mobile": ("Fón póca: ", "+353 87 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "ee_mobile": ("Mobiil: ", "+372 5%s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "lv_mobile": ("Tālrunis: ", "+371 2%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)), "\n"),
        "lt_mobile": ("Tel. nr.: ", "+370 6%s %s" % (_d(r, 2), _d(r, 5)), "\n"),
        "al_mobile": ("Celular: ", "+355 69 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "mk_mobile": ("Телефон: ", "+389 7%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)), "\n"),
        "by_mobile": ("Тэлефон: ", "+375 29 %s-%s-%s" % (_d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "kz_mobile": ("Телефон: ", "+7 70%s %s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "uz_mobile": ("Telefon: ", "+998 9%s %s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "pk_mobile": ("Mobile: ", "+92 3%s %s" % (_d(r, 2), _d(r, 7)), "\n"),
        "nz_mobile": ("Waea pūkoro: ", "+64 21 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "za_mobile": ("Cell: ", "+27 8%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)), "\n"),
        "so_mobile": ("Taleefan: ", "+252 61 %s" % _d(r, 7), "\n"),
        "ma_mobile": ("Tél. : ", "+212 6%s-%s" % (_d(r, 2), _d(r, 6)), "\n"),
        "gb_trunk": ("Switchboard: ", "+44 (0)20 %s %s" % (_d(r, 4), _d(r, 4)), "\n"),
        "de_trunk": ("Durchwahl: ", "+49 (0)30 %s-%s" % (_d(r, 4), _d(r, 3)), "\n"),
        "sip_callerid": ("[trunk-out]\ncallerid=\"Front Desk\" <", "+353%s%s" % (_d(r, 2), _d(r, 7)), ">\n"),
        "pjsip_tel": ("exten => 100,1,Dial(PJSIP/", "+3726%s" % _d(r, 6), "@trunk)\n"),
        "radius_calling": ("  Calling-Station-Id = \"", "+4420%s" % _d(r, 8), "\"\n"),
        "org_prop": ("* Ilze B.\n  :PROPERTIES:\n  :PHONE:    ", "+371 2%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)), "\n  :END:\n"),
        "rtf_cell": ("\\intbl Phone\\cell ", "(%s) %s-%s" % (a, x, s), "\\cell\\row\n"),
        "dart_const": ("const hotline = '", "+1 %s-%s-%s" % (a, x, s), "';\n"),
        "vb_dim": ("Dim faxNumber As String = \"", "%s.%s.%s" % (a, x, s), "\"\n"),
        "us_plain": ("Call me back at ", "%s %s %s" % (a, x, s), " after 5pm.\n"),
    }[form]
    _put(doc, lead, p, "phone", form, tail)


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["x12_ref_sy", "x12_nm1_34", "org_prop", "fortran_nml", "rtf_cell", "troff_table",
                     "rst_field", "dbt_seed_csv", "spring_yml", "nix_expr", "dart_const", "vb_dim",
                     "delphi_const", "slowlog_query", "journal_json", "ssn_itin"])
    lead, v, tail = {
        "x12_ref_sy": ("NM1*IL*1*TAMM*KADRI~\nREF*SY*", a + g + s, "~\n"),
        "x12_nm1_34": ("NM1*QC*1*BERZINA*ILZE****34*", a + g + s, "~\n"),
        "org_prop": ("  :PROPERTIES:\n  :SSN:      ", dashed, "\n  :END:\n"),
        "fortran_nml": ("&employee\n  ssn = '", dashed, "'\n/\n"),
        "rtf_cell": ("\\intbl Social Security No.\\cell ", dashed, "\\cell\\row\n"),
        "troff_table": (".TS\nl l.\nSSN\t", dashed, "\n.TE\n"),
        "rst_field": (":Employee: R. K.\n:SSN: ", dashed, "\n"),
        "dbt_seed_csv": ("employee_id,full_name,ssn,hire_date\n4412,Ruta K,", dashed, ",2021-03-01\n"),
        "spring_yml": ("test:\n  fixture:\n    ssn: \"", dashed, "\"\n"),
        "nix_expr": ("  payroll.employee.ssn = \"", dashed, "\";\n"),
        "dart_const": ("final socialSecurityNumber = '", dashed, "';\n"),
        "vb_dim": ("Dim ssn As String = \"", dashed, "\"\n"),
        "delphi_const": ("  EmployeeSSN = '", dashed, "';\n"),
        "slowlog_query": ("SELECT * FROM employees WHERE ssn = '", dashed, "';\n"),
        "journal_json": ("{\"SYSLOG_IDENTIFIER\":\"payroll\",\"MESSAGE\":\"verify failed for SSN ", dashed, "\"}\n"),
        "ssn_itin": ("TIN type: SSN\nTIN: ", dashed, "\n"),
    }[form]
    _put(doc, lead, v, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = _card(r, m)
    shown = _shown(r, c)
    form = r.choice(["org_prop", "fortran_nml", "rtf_cell", "rst_field", "dbt_seed_csv", "spring_yml", "nix_expr",
                     "dart_const", "swift_let", "objc_str", "vb_dim", "delphi_const", "slowlog_query",
                     "journal_json", "sieve_body", "prose"])
    if form == "prose":
        _prose(r, doc, shown, "credit_card", "prose_%s" % kind, "card")
        return
    lead, v, tail = {
        "org_prop": ("  :PROPERTIES:\n  :CARD:     ", shown, "\n  :END:\n"),
        "fortran_nml": ("&payment\n  card_number = '", c, "'\n/\n"),
        "rtf_cell": ("\\intbl Card number\\cell ", shown, "\\cell\\row\n"),
        "rst_field": (":Payment: card ", shown, "\n"),
        "dbt_seed_csv": ("order_id,pan,amount\n9001,", c, ",12.50\n"),
        "spring_yml": ("payments:\n  test-card: \"", c, "\"\n"),
        "nix_expr": ("  billing.cardNumber = \"", c, "\";\n"),
        "dart_const": ("const testCard = '", shown, "';\n"),
        "swift_let": ("let cardNumber = \"", c, "\"\n"),
        "objc_str": ("NSString *pan = @\"", c, "\";\n"),
        "vb_dim": ("Dim cardNo As String = \"", shown, "\"\n"),
        "delphi_const": ("  CardNumber = '", c, "';\n"),
        "slowlog_query": ("UPDATE payments SET pan = '", c, "' WHERE id = 9001;\n"),
        "journal_json": ("{\"SYSLOG_IDENTIFIER\":\"pos\",\"MESSAGE\":\"declined card ", shown, "\"}\n"),
        "sieve_body": ("if body :contains \"", shown, "\" { fileinto \"Fraud\"; }\n"),
    }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = m.group4(i)
    form = r.choice(["camt053", "org_prop", "fortran_nml", "rtf_cell", "rst_field", "dbt_seed_csv", "spring_yml",
                     "nix_expr", "dart_const", "vb_dim", "slowlog_query", "journal_json", "x12_remit", "prose"])
    if form == "prose":
        _prose(r, doc, spaced, "iban", "prose", "IBAN")
        return
    lead, v, tail = {
        "camt053": ("<Ntry><NtryDtls><TxDtls><RltdPties><DbtrAcct><Id><IBAN>", i, "</IBAN></Id></DbtrAcct>\n"),
        "org_prop": ("  :PROPERTIES:\n  :IBAN:     ", spaced, "\n  :END:\n"),
        "fortran_nml": ("&payee\n  account = '", i, "'\n/\n"),
        "rtf_cell": ("\\intbl IBAN\\cell ", spaced, "\\cell\\row\n"),
        "rst_field": (":Bank account: ", spaced, "\n"),
        "dbt_seed_csv": ("vendor_id,name,iban\n77,Tartu OU,", i, "\n"),
        "spring_yml": ("sepa:\n  creditor-iban: ", i, "\n"),
        "nix_expr": ("  invoicing.iban = \"", i, "\";\n"),
        "dart_const": ("const payeeAccount = '", spaced, "';\n"),
        "vb_dim": ("Dim iban As String = \"", i, "\"\n"),
        "slowlog_query": ("INSERT INTO payees (name, iban) VALUES ('Ohrid DOO', '", i, "');\n"),
        "journal_json": ("{\"SYSLOG_IDENTIFIER\":\"sepa-export\",\"MESSAGE\":\"rejected account ", i, "\"}\n"),
        "x12_remit": ("N1*PE*TARTU OU~\nREF*IB*", i, "~\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4(r)
    form = r.choice(["ipsec_secrets", "radius_client", "sip_host", "nm_address", "preseed", "kickstart", "cloud_init",
                     "nix_expr", "sudoers", "slowlog_host", "journal_json", "procfile", "rtf_cell", "org_prop",
                     "dart_const", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv4", "prose", "IP")
        return
    parts = {
        "ipsec_secrets": [(ip, "ipv4"), " ", (ip2, "ipv4"), " : PSK \"", (_tok(r, 20), "api_key"), "\"\n"],
        "radius_client": ["client branch-office {\n    ipaddr = ", (ip, "ipv4"), "\n    secret = ", (_tok(r, 16), "api_key"), "\n}\n"],
        "sip_host": ["[provider]\ntype=peer\nhost=", (ip, "ipv4"), "\nport=5060\n"],
        "nm_address": ["[ipv4]\nmethod=manual\naddress1=", (ip, "ipv4"), "/24,", (ip2, "ipv4"), "\n"],
        "preseed": ["d-i netcfg/get_ipaddress string ", (ip, "ipv4"), "\n"],
        "kickstart": ["network --bootproto=static --ip=", (ip, "ipv4"), " --netmask=255.255.255.0\n"],
        "cloud_init": ["network:\n  ethernets:\n    eth0:\n      addresses: [", (ip, "ipv4"), "/24]\n"],
        "nix_expr": ["  networking.interfaces.eth0.ipv4.addresses = [ { address = \"", (ip, "ipv4"), "\"; prefixLength = 24; } ];\n"],
        "sudoers": ["Host_Alias  DBHOSTS = ", (ip, "ipv4"), ", ", (ip2, "ipv4"), "\n"],
        "slowlog_host": ["# User@Host: app[app] @  [", (ip, "ipv4"), "]  Id: 4412\n"],
        "journal_json": ["{\"SYSLOG_IDENTIFIER\":\"sshd\",\"MESSAGE\":\"Accepted publickey for ops from ", (ip, "ipv4"), " port 52144 ssh2\"}\n"],
        "procfile": ["web: gunicorn app:app --bind ", (ip, "ipv4"), ":8000\n"],
        "rtf_cell": ["\\intbl Gateway\\cell ", (ip, "ipv4"), "\\cell\\row\n"],
        "org_prop": ["  :PROPERTIES:\n  :HOST_IP:  ", (ip, "ipv4"), "\n  :END:\n"],
        "dart_const": ["const serverAddress = '", (ip, "ipv4"), "';\n"],
    }[form]
    _seq(doc, form, parts)


def i_ipv6(r, doc, m):
    ip = _v6(r)
    form = r.choice(["ipsec_secrets", "radius_client", "sip_host", "nm_address", "preseed", "nix_expr", "sudoers",
                     "slowlog_host", "journal_json", "procfile", "dart_const", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv6", "prose", "IPv6")
        return
    parts = {
        "ipsec_secrets": [(ip, "ipv6"), " : PSK \"", (_tok(r, 24), "api_key"), "\"\n"],
        "radius_client": ["client v6peer {\n    ipv6addr = ", (ip, "ipv6"), "\n}\n"],
        "sip_host": ["[provider6]\nhost=[", (ip, "ipv6"), "]\n"],
        "nm_address": ["[ipv6]\nmethod=manual\naddress1=", (ip, "ipv6"), "/64\n"],
        "preseed": ["d-i netcfg/get_nameservers string ", (ip, "ipv6"), "\n"],
        "nix_expr": ["  networking.nameservers = [ \"", (ip, "ipv6"), "\" ];\n"],
        "sudoers": ["Host_Alias  V6HOSTS = ", (ip, "ipv6"), "\n"],
        "slowlog_host": ["# User@Host: app[app] @  [", (ip, "ipv6"), "]  Id: 4412\n"],
        "journal_json": ["{\"SYSLOG_IDENTIFIER\":\"sshd\",\"MESSAGE\":\"Connection closed by ", (ip, "ipv6"), " port 40022\"}\n"],
        "procfile": ["worker: celery -A app worker --broker-host ", (ip, "ipv6"), "\n"],
        "dart_const": ["const v6 = '", (ip, "ipv6"), "';\n"],
    }[form]
    _seq(doc, form, parts)


def i_api_key(r, doc, m):
    t = _tok(r, r.randint(24, 40))
    pw = _tok(r, r.randint(12, 20)) + r.choice(["", "!", "#", "%", "^", "?"])
    form = r.choice([
        "muttrc_pass", "nm_psk", "ipsec_psk", "radius_secret", "sip_secret", "dbt_password", "spring_password",
        "kickstart_rootpw", "preseed_pw", "cloud_init_chpasswd", "hgrc_auth", "gemrc_key", "cargo_token",
        "nix_secret", "fortran_nml", "dart_const", "swift_let", "objc_str", "vb_dim", "delphi_const", "ada_const",
        "databricks", "pulumi", "shopify", "doppler", "org_prop", "prose"])
    if form == "prose":
        _prose(r, doc, pw, "api_key", "prose", "password")
        return
    lead, v, tail = {
        "muttrc_pass": ("set imap_user = \"ops\"\nset imap_pass = \"", pw, "\"\n"),
        "nm_psk": ("[wifi-security]\nkey-mgmt=wpa-psk\npsk=", pw, "\n"),
        "ipsec_psk": (": PSK \"", pw, "\"\n"),
        "radius_secret": ("client nas01 {\n    secret = ", pw, "\n}\n"),
        "sip_secret": ("[alice]\ntype=friend\nsecret=", pw, "\n"),
        "dbt_password": ("      user: DBT_SVC\n      password: ", pw, "\n"),
        "spring_password": ("spring:\n  datasource:\n    password: ", pw, "\n"),
        "kickstart_rootpw": ("rootpw --plaintext ", pw, "\n"),
        "preseed_pw": ("d-i passwd/user-password password ", pw, "\n"),
        "cloud_init_chpasswd": ("chpasswd:\n  list: |\n    ops:", pw, "\n  expire: false\n"),
        "hgrc_auth": ("[auth]\nforge.prefix = https://hg.example.net\nforge.password = ", pw, "\n"),
        "gemrc_key": ("---\n:rubygems_api_key: ", "rubygems_" + _s(r, HEX, 48), "\n"),
        "cargo_token": ("[registry]\ntoken = \"", "cio" + _s(r, AN, 32), "\"\n"),
        "nix_secret": ("  services.grafana.settings.security.admin_password = \"", pw, "\";\n"),
        "fortran_nml": ("&service\n  api_key = '", t, "'\n/\n"),
        "dart_const": ("const apiKey = '", t, "';\n"),
        "swift_let": ("let clientSecret = \"", t, "\"\n"),
        "objc_str": ("NSString *accessToken = @\"", t, "\";\n"),
        "vb_dim": ("Dim apiSecret As String = \"", t, "\"\n"),
        "delphi_const": ("const\n  ApiToken = '", t, "';\n"),
        "ada_const": ("   Api_Key : constant String := \"", t, "\";\n"),
        "databricks": ("DATABRICKS_TOKEN=", "dapi" + _s(r, HEX, 32), "\n"),
        "pulumi": ("PULUMI_ACCESS_TOKEN=", "pul-" + _s(r, HEX, 40), "\n"),
        "shopify": ("SHOPIFY_ADMIN_TOKEN=", "shpat_" + _s(r, HEX, 32), "\n"),
        "doppler": ("DOPPLER_TOKEN=", "dp.st.prd." + _s(r, AN, 43), "\n"),
        "org_prop": ("  :PROPERTIES:\n  :PASSWORD: ", pw, "\n  :END:\n"),
    }[form]
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["set_cookie", "slowlog_query", "journal_json", "nix_expr", "dart_const", "swift_let",
                     "vb_dim", "org_prop", "rtf_cell", "fortran_nml", "spring_yml", "prose"])
    j = _jwt(r)
    if form == "prose":
        _prose(r, doc, j, "jwt", "prose", "token")
        return
    lead, tail = {
        "set_cookie": ("Set-Cookie: id_token=", "; Path=/; Secure; HttpOnly; SameSite=Lax\n"),
        "slowlog_query": ("SELECT user_id FROM sessions WHERE token = '", "';\n"),
        "journal_json": ("{\"SYSLOG_IDENTIFIER\":\"gateway\",\"MESSAGE\":\"rejected token ", "\"}\n"),
        "nix_expr": ("  services.agent.token = \"", "\";\n"),
        "dart_const": ("const debugJwt = '", "';\n"),
        "swift_let": ("let sessionToken = \"", "\"\n"),
        "vb_dim": ("Dim bearer As String = \"", "\"\n"),
        "org_prop": ("  :PROPERTIES:\n  :TOKEN:    ", "\n  :END:\n"),
        "rtf_cell": ("\\intbl Token\\cell ", "\\cell\\row\n"),
        "fortran_nml": ("&auth\n  token = '", "'\n/\n"),
        "spring_yml": ("security:\n  test-jwt: ", "\n"),
    }[form]
    _put(doc, lead, j, "jwt", form, tail)


def i_private_key(r, doc, m):
    kind = r.choice(["", "RSA ", "EC ", "OPENSSH ", "DSA "])
    form = r.choice(["nix_multiline", "cloud_init", "dart_raw", "org_src", "rst_literal", "rtf_par", "troff_nf",
                     "swift_multiline", "spring_yml", "dbt_keypair", "prose"])
    head, foot = "-----BEGIN %sPRIVATE KEY-----" % kind, "-----END %sPRIVATE KEY-----" % kind
    lines = [head] + _pem_lines(r) + [foot]
    k = "\n".join(lines)
    if form == "nix_multiline":
        v = "\n    ".join(lines)
        lead, tail = "  environment.etc.\"ssl/key.pem\".text = ''\n    ", "\n  '';\n"
    elif form == "cloud_init":
        v = "\n    ".join(lines)
        lead, tail = "ssh_keys:\n  rsa_private: |\n    ", "\n"
    elif form == "dart_raw":
        lead, v, tail = "const signingKey = r'''", k, "''';\n"
    elif form == "org_src":
        lead, v, tail = "#+BEGIN_SRC text :tangle key.pem\n", k, "\n#+END_SRC\n"
    elif form == "rst_literal":
        v = "\n   ".join(lines)
        lead, tail = "The deploy key::\n\n   ", "\n\n"
    elif form == "rtf_par":
        v = "\\par\n".join(lines)
        lead, tail = "{\\f1\\fs18 ", "\\par}\n"
    elif form == "troff_nf":
        lead, v, tail = ".nf\n", k, "\n.fi\n"
    elif form == "swift_multiline":
        v = "\n    ".join(lines)
        lead, tail = "let pem = \"\"\"\n    ", "\n    \"\"\"\n"
    elif form == "spring_yml":
        v = "\n      ".join(lines)
        lead, tail = "server:\n  ssl:\n    private-key: |\n      ", "\n"
    elif form == "dbt_keypair":
        v = "\\n".join(lines)
        lead, tail = "      private_key: \"", "\"\n"
    else:
        lang = r.choice(sorted(PROSE))
        lead, tail = PROSE[lang].split("{}")
        lead, v, tail = lead + "key:\n", k, "\n" + tail + "\n"
        form = "prose_" + lang
    _put(doc, lead, v, "private_key", "%s_%s" % (form, kind.strip().lower() or "pkcs8"), tail)


def i_url(r, doc, m):
    pw = _tok(r, r.randint(10, 22)) + r.choice(["", "", "!", "%40", "%2F" + _d(r, 2), "*", "-"])
    form = r.choice(["smb", "imaps_muttrc", "mqtt", "socks5", "rsync", "wss", "neo4j", "preseed_proxy",
                     "spring_yml", "dbt_profile", "nix_expr", "dart_const", "vb_dim", "fortran_nml",
                     "journal_json", "prose"])
    if form == "prose":
        lang = r.choice(sorted(PROSE))
        lead, tail = PROSE[lang].split("{}")
        _put(doc, lead + "smb://backup:", pw, "url_credentials", "prose_" + lang, "@nas.example.net/share " + tail + "\n")
        return
    lead, tail = {
        "smb": ("mount -t cifs smb://backup:", "@nas.example.net/share /mnt/nas\n"),
        "imaps_muttrc": ("set folder = \"imaps://saoirse:", "@imap.example.net:993\"\n"),
        "mqtt": ("MQTT_BROKER=mqtt://sensor:", "@broker.example.net:1883\n"),
        "socks5": ("ALL_PROXY=socks5://tunnel:", "@proxy.example.net:1080\n"),
        "rsync": ("rsync -a ./dist rsync://deploy:", "@mirror.example.net/releases/\n"),
        "wss": ("const ws = new WebSocket('wss://client:", "@stream.example.net/feed');\n"),
        "neo4j": ("NEO4J_URI=neo4j+s://neo4j:", "@graph.example.net:7687\n"),
        "preseed_proxy": ("d-i mirror/http/proxy string http://mirror:", "@proxy.example.net:3128/\n"),
        "spring_yml": ("spring:\n  rabbitmq:\n    addresses: amqp://svc:", "@mq.example.net:5672\n"),
        "dbt_profile": ("      host: \"postgresql://dbt:", "@warehouse.example.net:5432/analytics\"\n"),
        "nix_expr": ("  services.app.databaseUrl = \"postgres://app:", "@db.example.net/app\";\n"),
        "dart_const": ("const feedUrl = 'https://reader:", "@feeds.example.net/private.xml';\n"),
        "vb_dim": ("Dim ftpUrl As String = \"ftp://upload:", "@ftp.example.net/in/\"\n"),
        "fortran_nml": ("&io\n  remote = 'sftp://model:", "@hpc.example.net/scratch'\n/\n"),
        "journal_json": ("{\"SYSLOG_IDENTIFIER\":\"fetcher\",\"MESSAGE\":\"GET https://bot:", "@api.example.net/v2/items failed\"}\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def _luhn_ok(m, body):
    return body + m.luhn_digit(body)


def i_look(r, doc, m):
    q = r.randint
    kind = r.choice([
        "sip_callid", "krb_principal", "systemd_unit", "ssh_pubkey_comment", "message_id", "imei", "iccid", "orcid",
        "siret", "container_no", "iata_ticket", "aba_routing", "x12_ein", "npi", "eu_vat", "lei", "isin", "bic",
        "nix_store", "sri_hash", "journal_cursor", "boot_id", "radius_session", "windows_sid", "reg_guid",
        "mysql_gtid", "slowlog_time", "public_key", "certificate", "nix_version", "rtf_color", "x12_isa_ctrl",
        "kickstart_part", "fortran_real", "troff_date", "sip_branch", "imsi", "ean13"])
    hexid = lambda n: _s(r, HEX, n)
    if kind == "public_key":
        lines = ["-----BEGIN PUBLIC KEY-----"] + [_s(r, B64, 64) for _ in range(3)] + [_s(r, B64, 20) + "==", "-----END PUBLIC KEY-----"]
        doc.t("pubkey: |\n  ")
        doc.look("\n  ".join(lines), kind)
        doc.t("\n")
        return
    if kind == "certificate":
        lines = ["-----BEGIN CERTIFICATE-----"] + [_s(r, B64, 64) for _ in range(5)] + [_s(r, B64, 32) + "=", "-----END CERTIFICATE-----"]
        doc.t(".nf\n")
        doc.look("\n".join(lines), kind)
        doc.t("\n.fi\n")
        return
    lead, v, tail = {
        "sip_callid": ("Call-ID: ", "%s@%s" % (hexid(16), r.choice(["pbx01.voip.example.net", "sbc.example.com", "pc33.example.org"])), "\nCSeq: 1 INVITE\n"),
        "krb_principal": ("principal = ", "HTTP/%s.corp.example.net@CORP.EXAMPLE.NET" % r.choice(["web01", "intranet", "sso"]), "\n"),
        "systemd_unit": ("systemctl restart ", "%s@%s.service" % (r.choice(["openvpn-client", "wg-quick", "getty", "container-app"]), r.choice(["office", "wg0", "tty1", "blue.example"])), "\n"),
        "ssh_pubkey_comment": ("authorized_keys: ", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI%s %s@%s" % (_s(r, B64, 43), r.choice(["root", "deploy", "ci"]), r.choice(["buildhost", "nix-builder-03", "jump"])), "\n"),
        "message_id": ("In-Reply-To: <", "%s.%s@%s" % (_d(r, 14), hexid(8), r.choice(["mx.example.net", "lists.example.org"])), ">\n"),
        "imei": ("IMEI: ", _luhn_ok(m, "35" + _d(r, 12)), "\n"),
        "iccid": ("ICCID ", _luhn_ok(m, "8937" + _d(r, 14)), "\n"),
        "orcid": ("https://orcid.org/", "0000-000%d-%s-%s" % (q(1, 3), _d(r, 4), _d(r, 3) + r.choice(D + "X")), "\n"),
        "siret": ("SIRET : ", "%s %s %s %s" % (_d(r, 3), _d(r, 3), _d(r, 3), _d(r, 5)), "\n"),
        "container_no": ("Container: ", "%sU %s %d" % (r.choice(["MSC", "MAE", "CMA", "HLX"]), _d(r, 6), q(0, 9)), "\n"),
        "iata_ticket": ("Ticket number: ", "%03d-%s" % (q(1, 999), _d(r, 10)), "\n"),
        "aba_routing": ("Routing number (ABA): ", "0%s" % _d(r, 8), "\n"),
        "x12_ein": ("REF*EI*", _d(r, 9), "~\n"),
        "npi": ("NM1*85*2*TARTU CLINIC*****XX*", "1" + _d(r, 9), "~\n"),
        "eu_vat": ("VAT: ", r.choice(["EE", "LV", "LT", "LU", "MT", "IE"]) + _d(r, r.choice([8, 9, 11])), "\n"),
        "lei": ("LEI: ", _d(r, 4) + "00" + _s(r, UP + D, 12) + _d(r, 2), "\n"),
        "isin": ("ISIN ", r.choice(["US", "LU", "IE", "EE"]) + _s(r, UP + D, 9) + _d(r, 1), "\n"),
        "bic": ("BIC/SWIFT: ", r.choice(["HABA", "PARX", "LIAB", "RIKO"]) + r.choice(["EE", "LV", "LT"]) + "2X" + r.choice(["", "XXX"]), "\n"),
        "nix_store": ("building '", "/nix/store/%s-openssl-3.0.%d.drv" % (_s(r, "0123456789abcdfghijklmnpqrsvwxyz", 32), q(1, 15)), "'...\n"),
        "sri_hash": ("    hash = \"", "sha256-" + base64.b64encode(bytes(q(0, 255) for _ in range(32))).decode(), "\";\n"),
        "journal_cursor": ("\"__CURSOR\":\"", "s=%s;i=%x;b=%s;m=%x;t=%x;x=%s" % (hexid(32), q(1, 10 ** 6), hexid(32), q(1, 10 ** 9), q(10 ** 15, 2 * 10 ** 15), hexid(16)), "\",\n"),
        "boot_id": ("\"_BOOT_ID\":\"", hexid(32), "\",\n"),
        "radius_session": ("  Acct-Session-Id = \"", "%08X" % q(0, 0xFFFFFFFF), "\"\n"),
        "windows_sid": ("Security ID:  ", "S-1-5-21-%d-%d-%d-%d" % (q(10 ** 9, 4 * 10 ** 9), q(10 ** 9, 4 * 10 ** 9), q(10 ** 7, 4 * 10 ** 9), q(1000, 9999)), "\n"),
        "reg_guid": ("[HKEY_CLASSES_ROOT\\CLSID\\", "{%s-%s-%s-%s-%s}" % (_s(r, UHEX, 8), _s(r, UHEX, 4), _s(r, UHEX, 4), _s(r, UHEX, 4), _s(r, UHEX, 12)), "]\n"),
        "mysql_gtid": ("SET @@SESSION.GTID_NEXT= '", "%s-%s-%s-%s-%s:%d" % (_s(r, UHEX, 8), _s(r, UHEX, 4), _s(r, UHEX, 4), _s(r, UHEX, 4), _s(r, UHEX, 12), q(1, 99999)), "';\n"),
        "slowlog_time": ("# Query_time: ", "%d.%06d  Lock_time: 0.%06d Rows_sent: %d  Rows_examined: %d" % (q(0, 9), q(0, 999999), q(0, 999999), q(0, 999), q(1000, 9999999)), "\nSET timestamp=%d;\n" % q(1_700_000_000, 1_900_000_000)),
        "nix_version": ("  version = \"", "%d.%d.%d.%d" % (q(1, 30), q(0, 99), q(0, 99), q(0, 9999)), "\";\n"),
        "rtf_color": ("{\\colortbl;", "\\red%d\\green%d\\blue%d;" % (q(0, 255), q(0, 255), q(0, 255)), "}\n"),
        "x12_isa_ctrl": ("ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *261206*2258*^*00501*", "%09d" % q(1, 999999999), "*0*P*:~\n"),
        "kickstart_part": ("part /var --fstype=xfs --size=", str(q(2048, 409600)), "\n"),
        "fortran_real": ("  dt = ", "%d.%dd-%d" % (q(1, 9), q(0, 999), q(1, 9)), "\n"),
        "troff_date": (".TH TRACEGATE 1 \"", "2026-%02d-%02d" % (q(1, 12), q(1, 28)), "\" \"tracegate 0.9\"\n"),
        "sip_branch": ("Via: SIP/2.0/UDP pbx01.voip.example.net:5060;branch=", "z9hG4bK" + hexid(10), "\n"),
        "imsi": ("IMSI: ", "2480" + _d(r, 11), "\n"),
        "ean13": ("EAN ", _d(r, 13), "\n"),
    }[kind]
    doc.t(lead)
    doc.look(v, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["\n", "\\par\n", ".PP\n", "#+END_SRC\n", "/\n", "~\n", "'----\n"]


def heldout14_doc(r, doc, m):
    """One text of the fifteenth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
