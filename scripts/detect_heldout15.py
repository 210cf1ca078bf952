"""The fifteenth held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout15`; not run on its own.

A sixteenth template family, written and committed before any detector
change of the thirteenth round (the round that tunes on heldout14), from
real-world formats and not from the detectors' code. The session that
wrote it knew heldout14's per-class figures as its brief named them and
grepped the fourteen earlier families only for surroundings to keep
clear of; only its summary and per-class table are looked at until the
round's final measurement.

Surroundings that no other family writes, most from localization files,
application logs of web frameworks, office documents, database client
configs and code in scripting languages: gettext `.po` entries (header
fields, `msgid`/`msgstr` continuation strings), XLIFF `<trans-unit>`,
Android `res/values/strings.xml`, Apple `.strings`, BibTeX entries,
SpreadsheetML (`<Cell><Data ss:Type="String">`), OpenDocument
`content.xml` table cells; Serilog compact JSON (`@t`, `@mt`, `@l`),
Laravel/Monolog lines (`[date] production.ERROR: ... {"context"}`),
Python `logging` default lines, Sysmon event XML (`<Data
Name="CommandLine">`); MySQL `.my.cnf`, `php.ini`, PHP `new PDO(...)`,
Perl DBI `connect`, JDBC `DriverManager.getConnection`, Lua, Perl and
PHP hashes and arrays, C# object initializers, Elixir sigils, Ruby
squiggly heredocs, PHP nowdocs, Lua long brackets, C# verbatim strings,
`justfile` variables, Nickel records, REST client `.http` files,
`kubectl create secret --from-literal`, `docker run -e`, `helm install
--set`, Windows `unattend.xml`; prose in Oromo, Tswana, Sesotho, Shona,
Chichewa, Lingala, Fijian, Hawaiian, Greenlandic, Northern Sami,
Corsican, Sardinian, Yiddish, Guarani, Aymara, Nahuatl, Chuvash,
Turkmen, Uyghur, Sindhi, Odia, Assamese and Tok Pisin.

Values in shapes the earlier families did not write as such a set:
phones with an international exit prefix (`00`, `011`), Russian `8
(9xx)` trunks, Japanese, Korean, Chinese, Turkish, Iranian, Israeli,
Nigerian, Kenyan, Colombian, Chilean, Peruvian and Fijian mobiles in
their own groupings, US numbers glued `(201)555-0123`; cards of Cabal,
Naranja, Humo, UzCard, Meeza and the usual brands in these surroundings;
IBANs in MT940 `:25:` and `:86:` fields, `.po` strings, SpreadsheetML
cells and the code above; SSNs in HL7-like free text, spreadsheet cells,
hashes and W-2 box labels; keys of Render, Resend, Telegram bots, Okta
(`SSWS`), PagerDuty (`Token token=`), Laravel `APP_KEY=base64:`, and
plain passwords in every config above; JWTs in `.http` files, Serilog
properties and scripting-language variables; private keys in PHP
nowdocs, Perl heredocs, Lua long brackets, C# verbatim strings, Elixir
sigils, Ruby heredocs, `.po` continuation strings and spreadsheet cells;
`irc://`, `ftps://`, `pop3s://`, `nntp://`, `webcal://` and `ssh://`
URLs with a password.

Look-alikes no family wrote as such a set: gettext `Plural-Forms` and
`POT-Creation-Date`, XLIFF ids, Android `versionCode`s, UPS `1Z` and USPS
22-digit tracking numbers, FedEx 12-digit tracking numbers, DUNS
numbers, CAS registry numbers, VINs, PGP fingerprints in ten groups of
four, bech32 Bitcoin addresses, Stripe object ids (`pi_`, `cus_`,
`ch_`), Twilio account SIDs, MMSI and IMO numbers, 13-digit Unix
millisecond times, Sysmon process GUIDs and hashes, build-tagged
semantic versions, four-part clause numbers in contracts, German
`Postfach` numbers, air waybills, ISBN-10s, UPC-As, coordinates,
Serilog event ids, Laravel request ids.

It reuses only the value makers of `detect_corpus.py` (group4, luhn
digit) and the small ones of `detect_values.py`. Its texts are drawn
from their own seed (`detect_corpus.py` offsets the split's seed by
15015). It is the project's own, like the others.
"""
import base64

from detect_values import AN, D, HEX, UHEX, UP, LOW, B64, B64URL, _d, _nz, _put, _seq, _s, _ssn, _tok, with_check, family_doc


def _iban(r):
    country, bban = r.choice([
        ("DE", lambda: _d(r, 18)),
        ("FR", lambda: _d(r, 10) + _s(r, UP + D, 11) + _d(r, 2)),
        ("ES", lambda: _d(r, 20)),
        ("IT", lambda: _s(r, UP, 1) + _d(r, 10) + _s(r, UP + D, 12)),
        ("NL", lambda: _s(r, UP, 4) + _d(r, 10)),
        ("BE", lambda: _d(r, 12)),
        ("AT", lambda: _d(r, 16)),
        ("CH", lambda: _d(r, 5) + _s(r, UP + D, 12)),
        ("PL", lambda: _d(r, 24)),
        ("CZ", lambda: _d(r, 20)),
        ("SE", lambda: _d(r, 20)),
        ("PT", lambda: _d(r, 21)),
        ("GB", lambda: _s(r, UP, 4) + _d(r, 14)),
        ("RO", lambda: _s(r, UP, 4) + _s(r, UP + D, 16)),
        ("HU", lambda: _d(r, 24)),
        ("DK", lambda: _d(r, 14)),
        ("FI", lambda: _d(r, 14)),
        ("NO", lambda: _d(r, 11)),
        ("GR", lambda: _d(r, 7) + _s(r, UP + D, 16)),
        ("TR", lambda: _d(r, 6) + _s(r, UP + D, 16)),
    ])
    return with_check(country, bban())


def _card(r, m):
    """A card of a brand no family named, or a usual one, with its Luhn digit."""
    kind = r.choice(["cabal", "naranja", "humo", "uzcard", "meeza", "visa", "mc2", "amex", "discover", "jcb",
                     "unionpay"])
    prefix, n = {
        "cabal": (r.choice(["604201", "604209", "589657"]), 16),
        "naranja": ("589562", 16),
        "humo": ("9860", 16),
        "uzcard": ("8600", 16),
        "meeza": ("507803", 16),
        "visa": ("4", 16),
        "mc2": (str(r.randint(2221, 2720)), 16),
        "amex": (r.choice(["34", "37"]), 15),
        "discover": ("65", 16),
        "jcb": ("35" + str(r.randint(28, 89)), 16),
        "unionpay": ("62", 16),
    }[kind]
    body = prefix + _d(r, n - 1 - len(prefix))
    return body + m.luhn_digit(body), kind


def _shown(r, c):
    if len(c) == 15:
        return r.choice(["%s %s %s" % (c[:4], c[4:10], c[10:]), c])
    sep = r.choice([" ", "-", "", " "])
    return sep.join(c[i:i + 4] for i in range(0, len(c), 4))


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([5, 23, 34, 46, 51, 62, 78, 89, 94, 109, 128, 138, 146, 159, 178, 188, 193,
                                      201, 209, 212]),
                            r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2001:67c:%s:%s::%s" % (g(), g(), g()),
        lambda: "2a00:1450:%s:%s::%s" % (g(), g(), g()),
        lambda: "2406:da18:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),
        lambda: "2c0f:fb50:%s::%s:%s" % (g(), g(), g()),
        lambda: "fd12:%s:%s::%s" % (g(), g(), g()),
        lambda: "2600:1f18:%s:%s:%s:%s::%s" % (g(), g(), g(), g(), g()),
    ])()


def _b64u(raw):
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _jwt(r):
    alg = r.choice(["RS384", "HS256", "ES384", "EdDSA"])
    head = '{"typ":"JWT","alg":"%s"}' % alg
    body = '{"iss":"https://auth.%s.example","sub":"%s","exp":%d,"scope":"%s"}' % (
        r.choice(["shop", "crm", "lms"]), _s(r, LOW + D, 12), r.randint(1_700_000_000, 1_900_000_000),
        r.choice(["read", "read write", "admin"]))
    sig = {"RS384": 342, "HS256": 43, "ES384": 128, "EdDSA": 86}[alg]
    return "%s.%s.%s" % (_b64u(head), _b64u(body), _s(r, B64URL, sig))


def _pem_lines(r, width=64):
    return [_s(r, B64, width) for _ in range(r.randint(5, 9))] + [_s(r, B64, r.randint(8, width - 4)) + "="]


# ------------------------------------------------------------------ items

PROSE = {
    "om": "Maaloo {} quunnamaa ",              # Oromo
    "tn": "Ka kopo ikgolaganye le {} ",       # Tswana
    "st": "Ka kopo ikopanye le {} ",          # Sesotho
    "sn": "Ndapota taura na {} ",             # Shona
    "ny": "Chonde lumikizanani ndi {} ",      # Chichewa
    "ln": "Svp bosolola na {} ",              # Lingala
    "fj": "Yalovinaka veitaratara kina {} ",  # Fijian
    "haw": "E ʻoluʻolu e kelepona iā {} ",    # Hawaiian
    "kl": "Attavigitsinnaasigit {} ",         # Greenlandic
    "se": "Váldde oktavuođa {} ",             # Northern Sami
    "co": "Per piacè cuntattate {} ",         # Corsican
    "sc": "Pro praghere cuntata {} ",         # Sardinian
    "yi": "ביטע פֿאַרבינדט זיך מיט {} ",         # Yiddish
    "gn": "Ikatu piko reñemongeta {} ",       # Guarani
    "ay": "Mayt'apsma aka {} ",               # Aymara
    "nah": "Nimitztlatlauhtia xinechnotza {} ",  # Nahuatl
    "cv": "Тархасшӑн ҫыхӑнӑр: {} ",            # Chuvash
    "tk": "Haýyş edýäris, habarlaşyň: {} ",   # Turkmen
    "ug": "ئالاقىلىشىڭ: {} ",                  # Uyghur
    "sd": "مهرباني ڪري رابطو ڪريو {} ",          # Sindhi
    "or": "ଦୟାକରି ଯୋଗାଯୋଗ କରନ୍ତୁ {} ",           # Odia
    "as": "অনুগ্ৰহ কৰি যোগাযোগ কৰক {} ",         # Assamese
    "tpi": "Plis toktok wantaim {} ",         # Tok Pisin
}


def _prose(r, doc, value, cls, form_prefix, word):
    lang = r.choice(sorted(PROSE))
    lead, tail = PROSE[lang].split("{}")
    _put(doc, lead + word + " ", value, cls, "%s_%s" % (form_prefix, lang), tail + "\n")


def i_email(r, doc, m):
    local = r.choice(["tolera.g", "kagiso", "thabo.m", "tendai", "chikondi", "mbala", "litia.v", "kalani",
                      "aputsiaq", "ante.n", "ghjuvanni", "bachisio", "yankl", "arami", "xochitl.t", "merdan",
                      "l10n-team", "translators", "noc+alerts", "Billing.Desk"])
    dom = r.choice(["addis.example.et", "gaborone.example.bw", "maseru.example.ls", "harare.example.zw",
                    "suva.example.fj", "hilo.example.org", "nuuk.example.gl", "ajaccio.example.fr",
                    "cagliari.example.it", "asuncion.example.py", "ashgabat.example.tm", "lae.example.pg",
                    "translations.example.com", "Support.Example.NET"])
    e = "%s@%s" % (local, dom)
    form = r.choice(["po_translator", "po_msgstr", "xliff_note", "android_string", "apple_strings", "bibtex",
                     "spreadsheetml", "ods_cell", "serilog", "laravel_log", "py_logging", "perl_escaped",
                     "php_array", "lua_table", "csharp_init", "justfile", "nickel", "http_file", "mycnf_comment",
                     "unattend", "prose"])
    if form == "prose":
        _prose(r, doc, e, "email", "prose", "e-mail")
        return
    if form == "perl_escaped":
        # Perl interpolates @ in double quotes; the address is written with \@.
        loc, dm = e.split("@")
        doc.t("my $admin = \"")
        doc.item(loc + "\\@" + dm, "email", "t_perl_escaped")
        doc.t("\";\n")
        return
    lead, tail = {
        "po_translator": ("\"Last-Translator: Tendai M. <", ">\\n\"\n\"Language-Team: Shona\\n\"\n"),
        "po_msgstr": ("msgid \"Write to us\"\nmsgstr \"Tinyorerei pa ", "\"\n"),
        "xliff_note": ("<trans-unit id=\"contact.mail\">\n  <source>Contact</source>\n  <note from=\"", "\">check plural</note>\n"),
        "android_string": ("<string name=\"support_email\" translatable=\"false\">", "</string>\n"),
        "apple_strings": ("\"SUPPORT_ADDRESS\" = \"", "\";\n"),
        "bibtex": ("@article{tolera2026,\n  author = {Tolera Gemechu},\n  email  = {", "},\n  year   = {2026}\n}\n"),
        "spreadsheetml": ("<Row><Cell><Data ss:Type=\"String\">Kagiso</Data></Cell><Cell><Data ss:Type=\"String\">", "</Data></Cell></Row>\n"),
        "ods_cell": ("<table:table-cell office:value-type=\"string\"><text:p>", "</text:p></table:table-cell>\n"),
        "serilog": ("{\"@t\":\"2026-12-07T02:14:09.113Z\",\"@mt\":\"Invite sent to {Recipient}\",\"Recipient\":\"", "\"}\n"),
        "laravel_log": ("[2026-12-07 02:14:09] production.INFO: Password reset requested {\"email\":\"", "\"}\n"),
        "py_logging": ("INFO:mailer.outbox:queued message for ", "\n"),
        "php_array": ("    'from' => ['address' => '", "', 'name' => 'Shop'],\n"),
        "lua_table": ("local cfg = { notify = \"", "\", retries = 3 }\n"),
        "csharp_init": ("var opts = new SmtpOptions { Sender = \"", "\", Port = 587 };\n"),
        "justfile": ("maintainer := \"", "\"\n"),
        "nickel": ("{ owner = \"", "\", replicas = 2 }\n"),
        "http_file": ("POST https://api.example.net/v1/invites\nContent-Type: application/json\n\n{\"to\": \"", "\"}\n###\n"),
        "mycnf_comment": ("[client]\n# owner: ", "\nhost = db.internal\n"),
        "unattend": ("<RegisteredOwner>", "</RegisteredOwner>\n"),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    a, x, s = "%s%s" % (_nz(r), _d(r, 2)), "%s%s" % (_nz(r), _d(r, 2)), _d(r, 4)
    form = r.choice(["us_exit00", "us_exit011", "ru_trunk8", "jp_mobile", "kr_mobile", "cn_mobile", "tr_mobile",
                     "ir_mobile", "il_mobile", "ng_mobile", "ke_mobile", "co_mobile", "cl_mobile", "pe_mobile",
                     "fj_mobile", "us_glued", "po_msgstr", "android_string", "apple_strings", "spreadsheetml",
                     "serilog", "laravel_log", "php_array", "lua_table", "csharp_init", "http_file", "prose"])
    if form == "prose":
        _prose(r, doc, "+%s %s %s %s" % (r.choice(["251", "267", "266", "263", "265", "679"]), _d(r, 2), _d(r, 3),
                                          _d(r, 4)), "phone", "prose", "tel.")
        return
    p = {
        "us_exit00": "00 1 %s %s %s" % (a, x, s),
        "us_exit011": "011 44 20 %s %s" % (_d(r, 4), _d(r, 4)),
        "ru_trunk8": "8 (9%s) %s-%s-%s" % (_d(r, 2), _d(r, 3), _d(r, 2), _d(r, 2)),
        "jp_mobile": "+81 90-%s-%s" % (_d(r, 4), _d(r, 4)),
        "kr_mobile": "+82 10-%s-%s" % (_d(r, 4), _d(r, 4)),
        "cn_mobile": "+86 13%s %s %s" % (_d(r, 1), _d(r, 4), _d(r, 4)),
        "tr_mobile": "+90 (5%s) %s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 2), _d(r, 2)),
        "ir_mobile": "+98 912 %s %s" % (_d(r, 3), _d(r, 4)),
        "il_mobile": "+972-5%s-%s-%s" % (_d(r, 1), _d(r, 3), _d(r, 4)),
        "ng_mobile": "+234 80%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)),
        "ke_mobile": "+254 7%s %s" % (_d(r, 2), _d(r, 6)),
        "co_mobile": "+57 31%s %s" % (_d(r, 1), _d(r, 7)),
        "cl_mobile": "+56 9 %s %s" % (_d(r, 4), _d(r, 4)),
        "pe_mobile": "+51 9%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3)),
        "fj_mobile": "+679 %s %s" % (_d(r, 3), _d(r, 4)),
        "us_glued": "(%s)%s-%s" % (a, x, s),
    }.get(form) or r.choice(["+1 %s %s %s" % (a, x, s), "+44 7%s %s" % (_d(r, 3), _d(r, 6)),
                             "+33 6 %s %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2), _d(r, 2)),
                             "+49 151 %s %s" % (_d(r, 4), _d(r, 4))])
    lead, tail = {
        "us_exit00": ("Téléphone (depuis la France) : ", "\n"),
        "us_exit011": ("Dial from the US: ", "\n"),
        "ru_trunk8": ("Контактный телефон: ", "\n"),
        "jp_mobile": ("携帯電話: ", "\n"),
        "kr_mobile": ("휴대폰: ", "\n"),
        "cn_mobile": ("手机：", "\n"),
        "tr_mobile": ("Cep telefonu: ", "\n"),
        "ir_mobile": ("تلفن همراه: ", "\n"),
        "il_mobile": ("נייד: ", "\n"),
        "ng_mobile": ("Phone (MTN): ", "\n"),
        "ke_mobile": ("M-Pesa number: ", "\n"),
        "co_mobile": ("Celular: ", "\n"),
        "cl_mobile": ("Fono: ", "\n"),
        "pe_mobile": ("Teléfono móvil: ", "\n"),
        "fj_mobile": ("Vodafone Fiji: ", "\n"),
        "us_glued": ("Contact: Kalani K. ", " (cell)\n"),
        "po_msgstr": ("msgid \"Call support\"\nmsgstr \"Fonela tshegetso mo ", "\"\n"),
        "android_string": ("<string name=\"hotline\" translatable=\"false\">", "</string>\n"),
        "apple_strings": ("\"HOTLINE_NUMBER\" = \"", "\";\n"),
        "spreadsheetml": ("<Cell ss:StyleID=\"s21\"><Data ss:Type=\"String\">", "</Data></Cell>\n"),
        "serilog": ("{\"@t\":\"2026-12-07T02:15:44.001Z\",\"@mt\":\"SMS to {To} failed\",\"@l\":\"Warning\",\"To\":\"", "\"}\n"),
        "laravel_log": ("[2026-12-07 02:15:44] production.WARNING: OTP resend {\"phone\":\"", "\",\"attempt\":3}\n"),
        "php_array": ("    'phone' => '", "',\n"),
        "lua_table": ("contact = { name = \"Litia\", mobile = \"", "\" },\n"),
        "csharp_init": ("new Customer { Name = \"Arami\", Phone = \"", "\" },\n"),
        "http_file": ("POST https://api.example.net/v1/sms\nContent-Type: application/json\n\n{\"to\": \"", "\", \"body\": \"hi\"}\n###\n"),
    }[form]
    _put(doc, lead, p, "phone", form, tail)


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["hl7_text", "spreadsheetml", "ods_cell", "w2_box", "perl_hash", "php_array", "lua_table",
                     "csharp_init", "serilog", "laravel_log", "py_logging", "http_file", "nickel", "spaced_label",
                     "bibtex_note"])
    lead, v, tail = {
        "hl7_text": ("NTE|1||Patient SSN on file: ", dashed, "|\n"),
        "spreadsheetml": ("<Row><Cell><Data ss:Type=\"String\">SSN</Data></Cell><Cell><Data ss:Type=\"String\">", dashed, "</Data></Cell></Row>\n"),
        "ods_cell": ("<table:table-cell table:style-name=\"ssn\" office:value-type=\"string\"><text:p>", dashed, "</text:p></table:table-cell>\n"),
        "w2_box": ("a  Employee's social security number\n   ", dashed, "\n"),
        "perl_hash": ("my %employee = ( name => 'Kalani', ssn => '", dashed, "' );\n"),
        "php_array": ("$row = ['name' => 'Merdan', 'ssn' => '", dashed, "'];\n"),
        "lua_table": ("local emp = { ssn = \"", dashed, "\" }\n"),
        "csharp_init": ("new Employee { Ssn = \"", dashed, "\", Dept = 4 },\n"),
        "serilog": ("{\"@t\":\"2026-12-07T02:16:00.5Z\",\"@mt\":\"Verification failed\",\"@l\":\"Error\",\"SSN\":\"", dashed, "\"}\n"),
        "laravel_log": ("[2026-12-07 02:16:00] production.ERROR: payroll sync rejected {\"ssn\":\"", dashed, "\"}\n"),
        "py_logging": ("ERROR:payroll.sync:duplicate social security number ", dashed, "\n"),
        "http_file": ("PUT https://hr.example.net/api/employees/4412\nContent-Type: application/json\n\n{\"ssn\": \"", dashed, "\"}\n###\n"),
        "nickel": ("{ employee = { ssn = \"", dashed, "\" } }\n"),
        "spaced_label": ("Social Security No.: ", "%s %s %s" % (a, g, s), "\n"),
        "bibtex_note": ("  note = {Respondent SSN ", dashed, " redacted in print},\n"),
    }[form]
    _put(doc, lead, v, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = _card(r, m)
    shown = _shown(r, c)
    form = r.choice(["spreadsheetml", "ods_cell", "perl_hash", "php_array", "lua_table", "csharp_init", "serilog",
                     "laravel_log", "py_logging", "http_file", "nickel", "po_msgstr", "apple_strings", "justfile",
                     "mt940_86", "prose"])
    if form == "prose":
        _prose(r, doc, shown, "credit_card", "prose_%s" % kind, "card")
        return
    lead, v, tail = {
        "spreadsheetml": ("<Cell><Data ss:Type=\"String\">", shown, "</Data></Cell>\n"),
        "ods_cell": ("<table:table-cell office:value-type=\"string\"><text:p>", shown, "</text:p></table:table-cell>\n"),
        "perl_hash": ("my %payment = ( card => '", c, "', cvv => '", ),
        "php_array": ("$payment = ['card_number' => '", c, "', 'exp' => '12/29'];\n"),
        "lua_table": ("local pay = { pan = \"", c, "\" }\n"),
        "csharp_init": ("new PaymentCard { Number = \"", shown, "\", ExpMonth = 12 },\n"),
        "serilog": ("{\"@t\":\"2026-12-07T02:17:31.2Z\",\"@mt\":\"Charge declined\",\"@l\":\"Warning\",\"CardNumber\":\"", c, "\"}\n"),
        "laravel_log": ("[2026-12-07 02:17:31] production.ERROR: gateway timeout {\"card\":\"", shown, "\"}\n"),
        "py_logging": ("WARNING:billing.charge:declined card ", shown, "\n"),
        "http_file": ("POST https://pay.example.net/v1/charges\nContent-Type: application/json\n\n{\"number\": \"", c, "\"}\n###\n"),
        "nickel": ("{ test_card = \"", c, "\" }\n"),
        "po_msgstr": ("msgid \"Example: %s\"\nmsgstr \"Mohlala: ", shown, "\"\n"),
        "apple_strings": ("\"TEST_CARD\" = \"", shown, "\";\n"),
        "justfile": ("test_card := \"", c, "\"\n"),
        "mt940_86": (":86:166?00KARTENZAHLUNG?20KARTE ", c, "?30DEUTDEFF\n"),
    }[form]
    if form == "perl_hash":
        tail = "', cvv => '%s' );\n" % _d(r, 3)
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = m.group4(i)
    form = r.choice(["mt940_25", "mt940_86", "po_msgstr", "spreadsheetml", "ods_cell", "perl_hash", "php_array",
                     "lua_table", "csharp_init", "serilog", "laravel_log", "py_logging", "http_file", "nickel",
                     "android_string", "prose"])
    if form == "prose":
        _prose(r, doc, spaced, "iban", "prose", "IBAN")
        return
    lead, v, tail = {
        "mt940_25": (":20:STARTUMS\n:25:", i, "\n:28C:00042/001\n"),
        "mt940_86": (":86:166?00SEPA-UEBERWEISUNG?31", i, "?32MAX MUSTER\n"),
        "po_msgstr": ("msgid \"Pay to %s\"\nmsgstr \"Patala ho ", spaced, "\"\n"),
        "spreadsheetml": ("<Cell><Data ss:Type=\"String\">", spaced, "</Data></Cell>\n"),
        "ods_cell": ("<table:table-cell office:value-type=\"string\"><text:p>", i, "</text:p></table:table-cell>\n"),
        "perl_hash": ("my %payee = ( iban => '", i, "' );\n"),
        "php_array": ("$creditor = ['iban' => '", i, "', 'bic' => 'DEUTDEFF'];\n"),
        "lua_table": ("local acct = { iban = \"", i, "\" }\n"),
        "csharp_init": ("new Payee { Iban = \"", i, "\" },\n"),
        "serilog": ("{\"@t\":\"2026-12-07T02:18:02Z\",\"@mt\":\"Mandate created for {Iban}\",\"Iban\":\"", i, "\"}\n"),
        "laravel_log": ("[2026-12-07 02:18:02] production.INFO: payout queued {\"iban\":\"", i, "\"}\n"),
        "py_logging": ("INFO:sepa.export:creditor account ", spaced, " validated\n"),
        "http_file": ("POST https://bank.example.net/v1/payouts\nContent-Type: application/json\n\n{\"iban\": \"", i, "\"}\n###\n"),
        "nickel": ("{ payout_iban = \"", i, "\" }\n"),
        "android_string": ("<string name=\"donation_iban\" translatable=\"false\">", spaced, "</string>\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4(r)
    form = r.choice(["serilog", "laravel_log", "py_logging", "sysmon", "mycnf", "php_ini", "lua_table", "perl_hash",
                     "csharp_init", "nickel", "justfile", "http_file", "docker_run", "spreadsheetml", "po_msgstr",
                     "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv4", "prose", "IP")
        return
    parts = {
        "serilog": ["{\"@t\":\"2026-12-07T02:19:10Z\",\"@mt\":\"Login from {RemoteIp}\",\"RemoteIp\":\"", (ip, "ipv4"), "\"}\n"],
        "laravel_log": ["[2026-12-07 02:19:10] production.NOTICE: throttled {\"ip\":\"", (ip, "ipv4"), "\"}\n"],
        "py_logging": ["WARNING:auth:too many attempts from ", (ip, "ipv4"), "\n"],
        "sysmon": ["<Data Name=\"SourceIp\">", (ip, "ipv4"), "</Data>\n<Data Name=\"DestinationIp\">", (ip2, "ipv4"), "</Data>\n"],
        "mycnf": ["[client]\nhost = ", (ip, "ipv4"), "\nport = 3306\n"],
        "php_ini": ["[mysqli]\nmysqli.default_host = ", (ip, "ipv4"), "\n"],
        "lua_table": ["local upstream = { host = \"", (ip, "ipv4"), "\", port = 6379 }\n"],
        "perl_hash": ["my %db = ( host => '", (ip, "ipv4"), "' );\n"],
        "csharp_init": ["var ep = new IPEndPoint(IPAddress.Parse(\"", (ip, "ipv4"), "\"), 443);\n"],
        "nickel": ["{ bind = \"", (ip, "ipv4"), "\", port = 8080 }\n"],
        "justfile": ["host := \"", (ip, "ipv4"), "\"\n"],
        "http_file": ["@host = ", (ip, "ipv4"), "\nGET http://{{host}}/health\n###\n"],
        "docker_run": ["docker run --add-host db:", (ip, "ipv4"), " -p 8080:80 app\n"],
        "spreadsheetml": ["<Cell><Data ss:Type=\"String\">", (ip, "ipv4"), "</Data></Cell>\n"],
        "po_msgstr": ["msgid \"Server %s unreachable\"\nmsgstr \"Seva ", (ip, "ipv4"), " haiwanikwe\"\n"],
    }[form]
    _seq(doc, form, parts)


def i_ipv6(r, doc, m):
    ip = _v6(r)
    form = r.choice(["serilog", "laravel_log", "py_logging", "sysmon", "mycnf", "lua_table", "csharp_init", "nickel",
                     "http_file", "docker_run", "spreadsheetml", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv6", "prose", "IPv6")
        return
    parts = {
        "serilog": ["{\"@t\":\"2026-12-07T02:19:55Z\",\"@mt\":\"Login from {RemoteIp}\",\"RemoteIp\":\"", (ip, "ipv6"), "\"}\n"],
        "laravel_log": ["[2026-12-07 02:19:55] production.NOTICE: throttled {\"ip\":\"", (ip, "ipv6"), "\"}\n"],
        "py_logging": ["WARNING:auth:too many attempts from ", (ip, "ipv6"), "\n"],
        "sysmon": ["<Data Name=\"SourceIp\">", (ip, "ipv6"), "</Data>\n"],
        "mycnf": ["[client]\nhost = ", (ip, "ipv6"), "\n"],
        "lua_table": ["local upstream = { host = \"", (ip, "ipv6"), "\" }\n"],
        "csharp_init": ["var addr = IPAddress.Parse(\"", (ip, "ipv6"), "\");\n"],
        "nickel": ["{ bind = \"", (ip, "ipv6"), "\" }\n"],
        "http_file": ["GET http://[", (ip, "ipv6"), "]:8080/health\n###\n"],
        "docker_run": ["docker run --add-host db6:", (ip, "ipv6"), " app\n"],
        "spreadsheetml": ["<Cell><Data ss:Type=\"String\">", (ip, "ipv6"), "</Data></Cell>\n"],
    }[form]
    _seq(doc, form, parts)


def i_api_key(r, doc, m):
    t = _tok(r, r.randint(24, 40))
    pw = _tok(r, r.randint(12, 20)) + r.choice(["", "!", "@", "*", "+", "~"])
    form = r.choice([
        "mycnf_password", "php_ini", "pdo", "perl_dbi", "jdbc", "lua_redis", "perl_hash", "php_array",
        "csharp_init", "elixir_env", "justfile", "nickel", "http_file", "kubectl_literal", "docker_run_e",
        "helm_set", "unattend", "serilog", "laravel_app_key", "render", "resend", "telegram", "okta_ssws",
        "pagerduty", "spreadsheetml", "prose"])
    if form == "prose":
        _prose(r, doc, pw, "api_key", "prose", "password")
        return
    lead, v, tail = {
        "mycnf_password": ("[client]\nuser = backup\npassword = ", pw, "\n"),
        "php_ini": ("[mysqli]\nmysqli.default_pw = ", pw, "\n"),
        "pdo": ("$pdo = new PDO('mysql:host=db;dbname=shop', 'shop', '", pw, "');\n"),
        "perl_dbi": ("my $dbh = DBI->connect(\"dbi:Pg:dbname=ledger\", \"ledger\", \"", pw, "\");\n"),
        "jdbc": ("Connection c = DriverManager.getConnection(url, \"report\", \"", pw, "\");\n"),
        "lua_redis": ("local ok, err = red:auth(\"", pw, "\")\n"),
        "perl_hash": ("my %cfg = ( api_key => '", t, "', timeout => 30 );\n"),
        "php_array": ("    'secret' => '", t, "',\n"),
        "csharp_init": ("var creds = new NetworkCredential { UserName = \"svc\", Password = \"", pw, "\" };\n"),
        "elixir_env": ("config :shop, Shop.Mailer, api_key: \"", t, "\"\n"),
        "justfile": ("export DEPLOY_TOKEN := \"", t, "\"\n"),
        "nickel": ("{ db_password = \"", pw, "\" }\n"),
        "http_file": ("@apiToken = ", t, "\nGET https://api.example.net/v1/me\nAuthorization: Bearer {{apiToken}}\n###\n"),
        "kubectl_literal": ("kubectl create secret generic db --from-literal=password=", pw, "\n"),
        "docker_run_e": ("docker run -e POSTGRES_PASSWORD=", pw, " -d postgres:16\n"),
        "helm_set": ("helm install cache bitnami/redis --set auth.password=", pw, "\n"),
        "unattend": ("<AdministratorPassword>\n  <Value>", pw, "</Value>\n  <PlainText>true</PlainText>\n</AdministratorPassword>\n"),
        "serilog": ("{\"@t\":\"2026-12-07T02:20:31Z\",\"@mt\":\"Calling {Endpoint}\",\"ApiKey\":\"", t, "\"}\n"),
        "laravel_app_key": ("APP_ENV=production\nAPP_KEY=", "base64:" + base64.b64encode(bytes(r.randint(0, 255) for _ in range(32))).decode(), "\n"),
        "render": ("RENDER_API_KEY=", "rnd_" + _s(r, AN, 32), "\n"),
        "resend": ("RESEND_API_KEY=", "re_" + _s(r, AN, 8) + "_" + _s(r, AN, 24), "\n"),
        "telegram": ("TELEGRAM_BOT_TOKEN=", "%d:AA%s" % (r.randint(10 ** 9, 8 * 10 ** 9), _s(r, AN + "_-", 33)), "\n"),
        "okta_ssws": ("Authorization: SSWS ", "00" + _s(r, AN + "_-", 40), "\n"),
        "pagerduty": ("Authorization: Token token=", _s(r, AN + "_-", 20), "\n"),
        "spreadsheetml": ("<Row><Cell><Data ss:Type=\"String\">password</Data></Cell><Cell><Data ss:Type=\"String\">", pw, "</Data></Cell></Row>\n"),
    }[form]
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["http_file", "http_header", "serilog", "laravel_log", "py_logging", "perl_var", "php_var",
                     "lua_var", "csharp_init", "justfile", "spreadsheetml", "prose"])
    j = _jwt(r)
    if form == "prose":
        _prose(r, doc, j, "jwt", "prose", "token")
        return
    lead, tail = {
        "http_file": ("@jwt = ", "\nGET https://api.example.net/v1/orders\nAuthorization: Bearer {{jwt}}\n###\n"),
        "http_header": ("GET https://api.example.net/v1/orders\nAuthorization: Bearer ", "\n###\n"),
        "serilog": ("{\"@t\":\"2026-12-07T02:21:12Z\",\"@mt\":\"Token rejected\",\"@l\":\"Warning\",\"Token\":\"", "\"}\n"),
        "laravel_log": ("[2026-12-07 02:21:12] production.WARNING: invalid token {\"token\":\"", "\"}\n"),
        "py_logging": ("DEBUG:auth.jwt:decoding ", "\n"),
        "perl_var": ("my $jwt = '", "';\n"),
        "php_var": ("$token = '", "';\n"),
        "lua_var": ("local token = \"", "\"\n"),
        "csharp_init": ("var req = new TokenRequest { AccessToken = \"", "\" };\n"),
        "justfile": ("token := \"", "\"\n"),
        "spreadsheetml": ("<Cell><Data ss:Type=\"String\">", "</Data></Cell>\n"),
    }[form]
    _put(doc, lead, j, "jwt", form, tail)


def i_private_key(r, doc, m):
    kind = r.choice(["", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED "])
    form = r.choice(["php_nowdoc", "perl_heredoc", "lua_long", "csharp_verbatim", "elixir_sigil", "ruby_heredoc",
                     "po_continuation", "spreadsheetml", "apple_strings", "justfile", "prose"])
    head, foot = "-----BEGIN %sPRIVATE KEY-----" % kind, "-----END %sPRIVATE KEY-----" % kind
    lines = [head] + _pem_lines(r) + [foot]
    k = "\n".join(lines)
    if form == "php_nowdoc":
        lead, v, tail = "$key = <<<'KEY'\n", k, "\nKEY;\n"
    elif form == "perl_heredoc":
        lead, v, tail = "my $pem = <<'EOT';\n", k, "\nEOT\n"
    elif form == "lua_long":
        lead, v, tail = "local pem = [[\n", k, "\n]]\n"
    elif form == "csharp_verbatim":
        lead, v, tail = "const string Pem = @\"", k, "\";\n"
    elif form == "elixir_sigil":
        v = "\n  ".join(lines)
        lead, tail = "@signing_key ~S\"\"\"\n  ", "\n  \"\"\"\n"
    elif form == "ruby_heredoc":
        v = "\n    ".join(lines)
        lead, tail = "  KEY = <<~PEM\n    ", "\n  PEM\n"
    elif form == "po_continuation":
        v = "\\n\"\n\"".join(lines)
        lead, tail = "msgid \"\"\nmsgstr \"\"\n\"", "\\n\"\n"
    elif form == "spreadsheetml":
        v = "&#10;".join(lines)
        lead, tail = "<Cell><Data ss:Type=\"String\">", "</Data></Cell>\n"
    elif form == "apple_strings":
        v = "\\n".join(lines)
        lead, tail = "\"DEBUG_SIGNING_KEY\" = \"", "\";\n"
    elif form == "justfile":
        v = "\\n".join(lines)
        lead, tail = "signing_key := \"", "\"\n"
    else:
        lang = r.choice(sorted(PROSE))
        lead, tail = PROSE[lang].split("{}")
        lead, v, tail = lead + "key:\n", k, "\n" + tail + "\n"
        form = "prose_" + lang
    _put(doc, lead, v, "private_key", "%s_%s" % (form, kind.strip().lower() or "pkcs8"), tail)


def i_url(r, doc, m):
    pw = _tok(r, r.randint(10, 22)) + r.choice(["", "", "!", "%23", "%3A" + _d(r, 2), "~", "_"])
    form = r.choice(["irc", "ftps", "pop3s", "nntp", "webcal", "ssh", "serilog", "laravel_log", "py_logging",
                     "php_array", "lua_table", "perl_hash", "csharp_init", "http_file", "spreadsheetml", "prose"])
    if form == "prose":
        lang = r.choice(sorted(PROSE))
        lead, tail = PROSE[lang].split("{}")
        _put(doc, lead + "ftps://backup:", pw, "url_credentials", "prose_" + lang, "@files.example.net/in " + tail + "\n")
        return
    lead, tail = {
        "irc": ("/server irc://bouncer:", "@irc.example.net:6697/#ops\n"),
        "ftps": ("lftp ftps://upload:", "@files.example.net/incoming\n"),
        "pop3s": ("poll pop3s://kalani:", "@mail.example.net:995\n"),
        "nntp": ("NNTPSERVER=nntp://reader:", "@news.example.net:119\n"),
        "webcal": ("Subscribe: webcal://cal:", "@calendar.example.net/team.ics\n"),
        "ssh": ("git remote add mirror ssh://git:", "@git.example.net:2222/repo.git\n"),
        "serilog": ("{\"@t\":\"2026-12-07T02:22:40Z\",\"@mt\":\"Connecting to {Uri}\",\"Uri\":\"amqp://worker:", "@mq.example.net:5672/\"}\n"),
        "laravel_log": ("[2026-12-07 02:22:40] production.ERROR: SQLSTATE[HY000] {\"url\":\"mysql://shop:", "@db.example.net/shop\"}\n"),
        "py_logging": ("ERROR:celery.worker:cannot connect to redis://:", "@cache.example.net:6379/0\n"),
        "php_array": ("    'url' => 'pgsql://app:", "@db.example.net:5432/app',\n"),
        "lua_table": ("local src = { url = \"http://feed:", "@feeds.example.net/atom\" }\n"),
        "perl_hash": ("my %mirror = ( url => 'ftp://mirror:", "@ftp.example.net/pub' );\n"),
        "csharp_init": ("var proxy = new WebProxy { Address = new Uri(\"http://proxy:", "@proxy.example.net:3128\") };\n"),
        "http_file": ("GET https://admin:", "@api.example.net/v1/health\n###\n"),
        "spreadsheetml": ("<Cell><Data ss:Type=\"String\">https://svc:", "@intranet.example.net/report</Data></Cell>\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def _luhn_ok(m, body):
    return body + m.luhn_digit(body)


def i_look(r, doc, m):
    q = r.randint
    kind = r.choice([
        "po_plural", "po_date", "xliff_id", "android_version", "ups_tracking", "usps_tracking", "fedex_tracking",
        "duns", "cas_number", "vin", "pgp_fingerprint", "btc_bech32", "stripe_id", "twilio_sid", "mmsi", "imo",
        "unix_ms", "sysmon_guid", "sysmon_hash", "semver_build", "clause_number", "postfach", "air_waybill",
        "isbn10", "upc_a", "coordinates", "serilog_eventid", "laravel_request_id", "spreadsheet_number",
        "excel_serial_date", "po_reference", "bibtex_pages", "csharp_guid", "lua_version", "perl_version",
        "http_etag", "mt940_ref"])
    hexid = lambda n: _s(r, HEX, n)
    lead, v, tail = {
        "po_plural": ("\"Plural-Forms: ", "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : 2);", "\\n\"\n"),
        "po_date": ("\"POT-Creation-Date: ", "2026-%02d-%02d %02d:%02d+0000" % (q(1, 12), q(1, 28), q(0, 23), q(0, 59)), "\\n\"\n"),
        "xliff_id": ("<trans-unit id=\"", "%d" % q(10 ** 9, 10 ** 10 - 1), "\" resname=\"title\">\n"),
        "android_version": ("android:versionCode=\"", "%d" % q(10 ** 8, 10 ** 9), "\"\n"),
        "ups_tracking": ("UPS tracking: ", "1Z%s%s" % (_s(r, UP + D, 6), _d(r, 10)), "\n"),
        "usps_tracking": ("USPS Tracking #: ", "9400 1%s %s %s %s %s %s" % (_d(r, 3), _d(r, 4), _d(r, 4), _d(r, 4), _d(r, 4), _d(r, 2)), "\n"),
        "fedex_tracking": ("FedEx tracking number ", _d(r, 12), "\n"),
        "duns": ("D-U-N-S Number: ", "%s-%s-%s" % (_d(r, 2), _d(r, 3), _d(r, 4)), "\n"),
        "cas_number": ("CAS No. ", "%d-%s-%d" % (q(50, 99999), _d(r, 2), q(0, 9)), "\n"),
        "vin": ("VIN: ", _s(r, "ABCDEFGHJKLMNPRSTUVWXYZ0123456789", 17), "\n"),
        "pgp_fingerprint": ("Key fingerprint = ", " ".join(_s(r, UHEX, 4) for _ in range(5)) + "  " + " ".join(_s(r, UHEX, 4) for _ in range(5)), "\n"),
        "btc_bech32": ("Donations: ", "bc1q" + _s(r, "023456789acdefghjklmnpqrstuvwxyz", 38), "\n"),
        "stripe_id": ("\"payment_intent\": \"", r.choice(["pi_", "cus_", "ch_", "in_"]) + _s(r, AN, 24), "\",\n"),
        "twilio_sid": ("AccountSid=", "AC" + hexid(32), "&\n"),
        "mmsi": ("MMSI ", "2%s" % _d(r, 8), "\n"),
        "imo": ("Vessel IMO ", "9%s" % _d(r, 6), "\n"),
        "unix_ms": ("\"createdAt\": ", "%d" % q(1_700_000_000_000, 1_900_000_000_000), ",\n"),
        "sysmon_guid": ("<Data Name=\"ProcessGuid\">", "{%s-%s-%s-%s-%s}" % (_s(r, UHEX, 8), _s(r, UHEX, 4), _s(r, UHEX, 4), _s(r, UHEX, 4), _s(r, UHEX, 12)), "</Data>\n"),
        "sysmon_hash": ("<Data Name=\"Hashes\">", "SHA256=%s,IMPHASH=%s" % (_s(r, UHEX, 64), _s(r, UHEX, 32)), "</Data>\n"),
        "semver_build": ("version: ", "%d.%d.%d+build.%d" % (q(0, 9), q(0, 30), q(0, 99), q(20260101, 20261231)), "\n"),
        "clause_number": ("As set out in clause ", "%d.%d.%d.%d" % (q(1, 30), q(1, 20), q(1, 12), q(1, 9)), " of the Agreement,\n"),
        "postfach": ("Postfach ", "%s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2)), ", 10115 Berlin\n"),
        "air_waybill": ("AWB ", "%03d-%s" % (q(1, 999), _d(r, 8)), "\n"),
        "isbn10": ("ISBN ", "%d-%s-%s-%s" % (q(0, 9), _d(r, 3), _d(r, 5), r.choice(D + "X")), "\n"),
        "upc_a": ("UPC: ", _d(r, 12), "\n"),
        "coordinates": ("\"location\": [", "%d.%06d, %d.%06d" % (q(-80, 80), q(0, 999999), q(-170, 170), q(0, 999999)), "],\n"),
        "serilog_eventid": ("\"@i\":\"", hexid(8), "\",\n"),
        "laravel_request_id": ("{\"request_id\":\"", "%s-%s-%s-%s-%s" % (hexid(8), hexid(4), hexid(4), hexid(4), hexid(12)), "\"}\n"),
        "spreadsheet_number": ("<Cell><Data ss:Type=\"Number\">", "%d%s" % (q(1, 9), _d(r, 17)), "</Data></Cell>\n"),
        "excel_serial_date": ("<Cell ss:StyleID=\"date\"><Data ss:Type=\"Number\">", "%d.%d" % (q(40000, 47000), q(1, 99999)), "</Data></Cell>\n"),
        "po_reference": ("#: ", "src/checkout/Summary.vue:%d src/checkout/Pay.vue:%d" % (q(1, 999), q(1, 999)), "\n"),
        "bibtex_pages": ("  pages = {", "%d--%d" % (q(100, 500), q(501, 999)), "},\n"),
        "csharp_guid": ("[Guid(\"", "%s-%s-%s-%s-%s" % (hexid(8), hexid(4), hexid(4), hexid(4), hexid(12)), "\")]\n"),
        "lua_version": ("_VERSION = \"", "Lua %d.%d.%d" % (5, q(1, 4), q(0, 9)), "\"\n"),
        "perl_version": ("our $VERSION = '", "%d.%03d_%03d" % (q(0, 9), q(0, 999), q(0, 999)), "';\n"),
        "http_etag": ("ETag: \"", hexid(32), "\"\n"),
        "mt940_ref": (":20:", "%s%s" % (_s(r, UP, 4), _d(r, 12)), "\n"),
    }[kind]
    doc.t(lead)
    doc.look(v, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["\n", "###\n", "</Row>\n", "msgid \"\"\n", "-- \n", "}\n", "</trans-unit>\n"]


def heldout15_doc(r, doc, m):
    """One text of the sixteenth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
