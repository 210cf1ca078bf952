"""The eighth held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout8`; not run on its own.

A ninth template family, written and committed before any detector
change of the sixth round (the round that closes heldout7's misses),
from real-world formats and not from the detectors' code. The session
that wrote it knew heldout7's miss classes as the brief named them
(blank-separated directives such as `.netrc` `password x`, Redis
`requirepass`, Junos `secret`, IMAP `LOGIN`; outline numbers read as
IPv4; SWIFT `:20:` references read as cards; phone false positives) and
the detectors' source; only its per-class table is looked at until the
round's final measurement.

Surroundings that no other family writes: HAProxy and Traefik access
logs, nginx and Apache error logs, RFC 5424 syslog with structured data,
Cisco ASA, FortiGate and Juniper SRX firewall logs, BIND query logs, Kea
DHCP, Rails and Phoenix request logs, Redis server logs, journald JSON
export, git `log` and `.mailmap`, Debian `control`, LDIF, TwiML,
ISO 8583 dumps and magnetic-stripe track data, CSV bank exports; configs of msmtp, ldap.conf,
slapd, FRR/Quagga BGP, HAProxy userlists, pgbouncer, Postfix
`sasl_passwd`, Tomcat users, WordPress `wp-config.php`, Spring
properties, Grafana, Alertmanager, sssd, OfflineIMAP, Ansible
inventories; shell commands with password flags (`sshpass -p`,
`keytool -storepass`, `openssl -passout pass:`, `htpasswd -b`); SQL
(`IDENTIFIED BY`, `CREATE ROLE … PASSWORD`, T-SQL, PL/SQL), MongoDB
shell `createUser`; code in ABAP, Ada, Common Lisp, Racket, Prolog, Elm,
Gleam, Odin, V, AWK, Batch, AppleScript, Apex, SAS and Scala; prose in
Latvian, Basque, Galician, Irish, Macedonian, Belarusian, Kazakh, Uzbek,
Mongolian, Sinhala, Khmer, Yoruba, Zulu, Somali, Malagasy and
Esperanto; phones of 20 countries not used before in their own
groupings; IBANs of countries no family used (CY, GI, FO, GL, LI, MC,
VA, BY, KW, LB, PS, IQ, EG, SC, BR, CR, DO, GT, SV, XK, PK, SA, AE,
IL); new shapes (an address in Cisco's `iface:addr/port`, in BIND's
`addr#port`, a Redis `:pw@` URL with an empty user, PEM in Ada and
Racket strings and a PowerShell here-string, a JWT after the `JWT`
scheme) and look-alikes (SNMP OIDs, Windows SIDs and build numbers,
ISSN and EAN-13 codes, GS1 SSCCs, ISO 6346 container codes, BGP
communities, MAC addresses, Haskell-like signatures, Go module sums,
Docker digests, SSH public keys, PGP public key blocks, AWS ARNs, DOIs,
arXiv ids, NMEA sentences, EDIFACT segments, Unity and Maven versions,
outline numbers after Latvian, Basque and Macedonian words, dates with
a trailing dot, …).

It reuses only the value makers of `detect_corpus.py` (card_number, jwt,
pem, group4) and the small ones of `detect_values.py`. Its texts are
drawn from their own seed (`detect_corpus.py` offsets the split's
seed). It is the project's own, like the others.
"""
from detect_values import AN, D, HEX, UHEX, UP, _d, _nz, _put, _s, _seq, _ssn, _tok, with_check, family_doc


def _iban(r):
    country, bban = r.choice([
        ("CY", lambda: _d(r, 8) + _s(r, UP + D, 16)),
        ("GI", lambda: _s(r, UP, 4) + _s(r, UP + D, 15)),
        ("FO", lambda: _d(r, 14)),
        ("GL", lambda: _d(r, 14)),
        ("LI", lambda: _d(r, 5) + _s(r, UP + D, 12)),
        ("MC", lambda: _d(r, 10) + _s(r, UP + D, 11) + _d(r, 2)),
        ("VA", lambda: _d(r, 18)),
        ("BY", lambda: _s(r, UP + D, 4) + _d(r, 4) + _s(r, UP + D, 16)),
        ("KW", lambda: _s(r, UP, 4) + _s(r, UP + D, 22)),
        ("LB", lambda: _d(r, 4) + _s(r, UP + D, 20)),
        ("PS", lambda: _s(r, UP, 4) + _s(r, UP + D, 21)),
        ("IQ", lambda: _s(r, UP, 4) + _d(r, 15)),
        ("EG", lambda: _d(r, 25)),
        ("SC", lambda: _s(r, UP, 4) + _d(r, 20) + "SCR"),
        ("BR", lambda: _d(r, 23) + "C" + _s(r, UP, 1)),
        ("CR", lambda: "0" + _d(r, 17)),
        ("DO", lambda: _s(r, UP, 4) + _d(r, 20)),
        ("GT", lambda: _s(r, UP, 4) + _s(r, UP + D, 20)),
        ("SV", lambda: _s(r, UP, 4) + _d(r, 20)),
        ("XK", lambda: _d(r, 16)),
        ("PK", lambda: _s(r, UP, 4) + _s(r, UP + D, 16)),
        ("SA", lambda: _d(r, 2) + _s(r, UP + D, 18)),
        ("AE", lambda: _d(r, 19)),
        ("IL", lambda: _d(r, 19)),
    ])
    return with_check(country, bban())


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([2, 31, 46, 77, 89, 109, 151, 178, 185, 193, 212, 217]), r.randint(0, 255),
                            r.randint(0, 255), r.randint(1, 254))


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2a01:%s:%s:%s::%s" % (g(), g(), g(), g()),
        lambda: "2001:67c:%s::%s:%s" % (g(), g(), g()),
        lambda: "2403:%s:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g(), g()),
        lambda: "2c0f:%s:%s::%s" % (g(), g(), g()),
        lambda: "2a10:%04x:%04x:%04x:0:0:0:%x" % (r.randint(0, 0xffff), r.randint(0, 0xffff), r.randint(0, 0xffff),
                                                  r.randint(1, 0xffff)),
        lambda: "2001:%s::%s" % (g(), g()),
    ])()


# ------------------------------------------------------------------ items

def i_email(r, doc, m):
    e = "%s@%s" % (r.choice(["janis.berzins", "miren.etxeberria", "xoan.lopez", "siobhan.oconnor", "ana.petrovska",
                             "aliaksandr.k", "aizhan.n", "dilshod", "batbayar.g", "nimal.perera", "sokha.chan",
                             "adebayo.o", "sipho.dlamini", "hodan.ali", "rija.r", "esperantisto", "noreply-ops"]),
                   r.choice(["piemers.lv", "adibidea.eus", "exemplo.gal", "sampla.ie", "primer.mk", "pryklad.by",
                             "mysal.kz", "misol.uz", "jishee.mn", "udaharana.lk", "example.com.kh", "apeere.ng",
                             "isibonelo.co.za", "tusaale.so", "ohatra.mg", "ekzemplo.org", "Post.Example.IE"]))
    form = r.choice(["git_author", "mailmap", "deb_control", "ldif_mail", "haproxy_user", "journald", "abap", "ada",
                     "lisp", "prolog", "elm", "gleam", "apex", "lv_prose", "eu_prose", "gl_prose", "ga_prose",
                     "mk_prose", "be_prose", "kk_prose", "uz_prose", "mn_prose", "si_prose", "km_prose", "yo_prose",
                     "zu_prose", "so_prose", "mg_prose", "eo_prose"])
    lead, tail = {
        "git_author": ("commit %s\nAuthor: Jānis Bērziņš <" % _s(r, HEX, 40), ">\nDate:   Sun Dec 6 09:14:02 2026 +0200\n"),
        "mailmap": ("# .mailmap\nMiren Etxeberria <", ">\n"),
        "deb_control": ("Source: tracegate\nSection: net\nMaintainer: Xoán López <", ">\nBuild-Depends: debhelper-compat (= 13)\n"),
        "ldif_mail": ("dn: uid=jberzins,ou=people,dc=piemers,dc=lv\nobjectClass: inetOrgPerson\nmail: ", "\n"),
        "haproxy_user": ("    http-request set-header X-Forwarded-User ", "\n"),
        "journald": ("{\"__REALTIME_TIMESTAMP\":\"1733476442118211\",\"_COMM\":\"postfix/smtp\",\"MESSAGE\":\"to=<",
                     ">, relay=none, status=deferred\"}\n"),
        "abap": ("  lv_email = '", "'.\n"),
        "ada": ("   Contact : constant String := \"", "\";\n"),
        "lisp": ("(defparameter *maintainer* \"", "\")\n"),
        "prolog": ("contact(ops, '", "').\n"),
        "elm": ("supportEmail =\n    \"", "\"\n"),
        "gleam": ("pub const contact = \"", "\"\n"),
        "apex": ("        c.Email = '", "';\n"),
        "lv_prose": ("Rakstiet mums uz ", ", atbildēsim divu dienu laikā.\n"),
        "eu_prose": ("Idatzi helbide honetara: ", "\n"),
        "gl_prose": ("Escríbenos a ", " se tes dúbidas.\n"),
        "ga_prose": ("Seol ríomhphost chuig ", " le do thoil.\n"),
        "mk_prose": ("Пишете ни на ", " до петок.\n"),
        "be_prose": ("Пішыце нам на ", ".\n"),
        "kk_prose": ("Бізге хат жазыңыз: ", "\n"),
        "uz_prose": ("Bizga yozing: ", " manziliga.\n"),
        "mn_prose": ("Имэйл хаяг: ", "\n"),
        "si_prose": ("විද්‍යුත් තැපෑල: ", "\n"),
        "km_prose": ("អ៊ីមែល៖ ", "\n"),
        "yo_prose": ("Kọ lẹta si ", " jọwọ.\n"),
        "zu_prose": ("Sithumele i-imeyili ku-", ".\n"),
        "so_prose": ("Nagala soo xiriir ", ".\n"),
        "mg_prose": ("Mandefasa mailaka amin'ny ", ".\n"),
        "eo_prose": ("Skribu al ni ĉe ", ", ni respondos baldaŭ.\n"),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    form = r.choice(["lv_mobile", "by_mobile", "cy_mobile", "uz_mobile", "mn_mobile", "mm_mobile", "kh_mobile",
                     "gh_mobile", "zw_mobile", "ug_mobile", "so_mobile", "mg_mobile", "fj_mobile", "uy_mobile",
                     "ec_mobile", "cr_mobile", "mk_mobile", "ba_mobile", "kg_mobile", "fo_mobile",
                     "us_twiml", "us_ldif", "us_ada", "us_batch", "us_awk", "us_ext_prose"])
    a, x, s = "%s%s" % (_nz(r), _d(r, 2)), "%s%s" % (_nz(r), _d(r, 2)), _d(r, 4)
    lead, p, tail = {
        "lv_mobile": ("Tālrunis: ", "+371 2%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)), "\n"),
        "by_mobile": ("Тэл.: ", "+375 29 %s-%s-%s" % (_d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "cy_mobile": ("Κινητό: ", "+357 99 %s" % _d(r, 6), "\n"),
        "uz_mobile": ("Telefon raqami: ", "+998 9%s %s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "mn_mobile": ("Утас: ", "+976 88%s %s" % (_d(r, 2), _d(r, 4)), "\n"),
        "mm_mobile": ("ဖုန်း- ", "+95 9 %s %s %s" % (_d(r, 3), _d(r, 3), _d(r, 3)), "\n"),
        "kh_mobile": ("ទូរស័ព្ទ៖ ", "+855 1%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)), "\n"),
        "gh_mobile": ("Call or WhatsApp ", "+233 24 %s %s" % (_d(r, 3), _d(r, 4)), " any time.\n"),
        "zw_mobile": ("Nhamba yefoni: ", "+263 77 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "ug_mobile": ("Essimu: ", "+256 77%s %s" % (_d(r, 1), _d(r, 6)), "\n"),
        "so_mobile": ("Taleefan: ", "+252 61 %s" % _d(r, 7), "\n"),
        "mg_mobile": ("Finday: ", "+261 3%s %s %s %s" % (_d(r, 1), _d(r, 2), _d(r, 3), _d(r, 2)), "\n"),
        "fj_mobile": ("Mobile: ", "+679 9%s %s" % (_d(r, 2), _d(r, 4)), "\n"),
        "uy_mobile": ("Celular: ", "+598 9%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)), "\n"),
        "ec_mobile": ("Celular: ", "+593 9%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)), "\n"),
        "cr_mobile": ("Teléfono: ", "+506 8%s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "mk_mobile": ("Мобилен: ", "+389 7%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)), "\n"),
        "ba_mobile": ("Mob.: ", "+387 6%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)), "\n"),
        "kg_mobile": ("Тел.: ", "+996 55%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)), "\n"),
        "fo_mobile": ("Fartelefon: ", "+298 %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "us_twiml": ("<Response>\n  <Dial timeout=\"20\">\n    <Number>", "+1%s%s%s" % (a, x, s),
                     "</Number>\n  </Dial>\n</Response>\n"),
        "us_ldif": ("telephoneNumber: ", "+1 %s %s %s" % (a, x, s), "\n"),
        "us_ada": ("   Hotline : constant String := \"", "(%s) %s-%s" % (a, x, s), "\";\n"),
        "us_batch": ("set SUPPORT_PHONE=", "%s-%s-%s" % (a, x, s), "\n"),
        "us_awk": ("BEGIN { oncall = \"", "+1 (%s) %s-%s" % (a, x, s), "\" }\n"),
        "us_ext_prose": ("Reach the desk at ", "(%s) %s-%s" % (a, x, s), " ext. 204 on weekdays.\n"),
    }[form]
    _put(doc, lead, p, "phone", form, tail)


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["abap", "ada", "plsql", "tsql", "sas", "apex", "lisp", "batch", "ldif", "ansible_var",
                     "gl_prose", "eo_prose", "form_941_schedule", "i9_list"])
    lead, v, tail = {
        "abap": ("  ls_emp-ssn = '", dashed, "'.\n"),
        "ada": ("   Emp_SSN : constant String := \"", dashed, "\";\n"),
        "plsql": ("  v_ssn VARCHAR2(11) := '", dashed, "';\n"),
        "tsql": ("DECLARE @SSN char(11) = '", dashed, "';\n"),
        "sas": ("data emp; ssn = '", dashed, "'; run;\n"),
        "apex": ("        c.SSN__c = '", dashed, "';\n"),
        "lisp": ("(setf (getf emp :ssn) \"", dashed, "\")\n"),
        "batch": ("set EMP_SSN=", dashed, "\n"),
        "ldif": ("employeeType: contractor\nssn: ", dashed, "\n"),
        "ansible_var": ("employee_ssn: \"", dashed, "\"\n"),
        "gl_prose": ("O seu número da Seguridade Social (SSN) é ", dashed, ".\n"),
        "eo_prose": ("Usona socialasekura numero (SSN): ", dashed, "\n"),
        "form_941_schedule": ("Schedule R  Client EIN / SSN: ", dashed, "\n"),
        "i9_list": ("Section 1. U.S. Social Security Number: ", dashed, "\n"),
    }[form]
    _put(doc, lead, v, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = m.card_number(r)
    shown = ("%s %s %s" % (c[:4], c[4:10], c[10:])) if kind == "amex" else m.group4(c, r.choice([" ", "-", ""]))
    form = r.choice(["track2", "iso8583_de2", "abap", "ada", "plsql", "tsql", "sas", "apex", "odin", "vlang",
                     "applescript", "csv_export", "lv_prose", "eu_prose", "gl_prose", "mk_prose", "be_prose",
                     "kk_prose", "zu_prose", "eo_prose"])
    lead, v, tail = {
        # Magnetic stripe track 2: `;PAN=YYMM...?`
        "track2": ("track2=;", c, "=2912101%s?\n" % _d(r, 8)),
        "iso8583_de2": ("  DE002 (PAN)            : ", c, "\n  DE003 (Processing code): 000000\n"),
        "abap": ("  ls_pay-ccnum = '", c, "'.\n"),
        "ada": ("   Test_PAN : constant String := \"", shown, "\";\n"),
        "plsql": ("  v_pan VARCHAR2(19) := '", c, "';\n"),
        "tsql": ("INSERT INTO dbo.Cards (CardNumber) VALUES (N'", c, "');\n"),
        "sas": ("data pay; cardnum = '", shown, "'; run;\n"),
        "apex": ("        p.Card_Number__c = '", c, "';\n"),
        "odin": ("test_card :: \"", shown, "\"\n"),
        "vlang": ("const card_no = '", shown, "'\n"),
        "applescript": ("set cardNumber to \"", shown, "\"\n"),
        "csv_export": ("order_id;holder;card_number;exp\n%s;J. Berzins;" % _d(r, 6), shown, ";12/29\n"),
        "lv_prose": ("Kartes numurs: ", shown, "\n"),
        "eu_prose": ("Txartelaren zenbakia ", shown, " da.\n"),
        "gl_prose": ("O número da tarxeta é ", shown, ", caduca en decembro.\n"),
        "mk_prose": ("Број на картичка: ", shown, "\n"),
        "be_prose": ("Нумар карткі: ", shown, "\n"),
        "kk_prose": ("Карта нөмірі: ", shown, "\n"),
        "zu_prose": ("Inombolo yekhadi: ", shown, "\n"),
        "eo_prose": ("La kartnumero estas ", shown, ".\n"),
    }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = m.group4(i)
    form = r.choice(["csv_export", "abap", "ada", "plsql", "tsql", "apex", "sas", "scala", "ansible_var",
                     "lv_prose", "eu_prose", "gl_prose", "ga_prose", "mk_prose", "be_prose", "ar_prose", "he_iban",
                     "pt_br_prose", "fo_prose", "eo_prose"])
    lead, v, tail = {
        "csv_export": ("Datum;Empfänger;IBAN;Betrag\n06.12.2026;J. Berzins;", i, ";-12,50\n"),
        "abap": ("  ls_bank-iban = '", i, "'.\n"),
        "ada": ("   Payee_IBAN : constant String := \"", i, "\";\n"),
        "plsql": ("  v_iban VARCHAR2(34) := '", i, "';\n"),
        "tsql": ("UPDATE dbo.Payees SET Iban = N'", i, "' WHERE Id = 3;\n"),
        "apex": ("        acc.IBAN__c = '", i, "';\n"),
        "sas": ("data pay; iban = '", i, "'; run;\n"),
        "scala": ("val payeeIban = \"", i, "\"\n"),
        "ansible_var": ("payout_iban: \"", i, "\"\n"),
        "lv_prose": ("Konta numurs (IBAN): ", spaced, "\n"),
        "eu_prose": ("Ordaindu kontu honetan: ", spaced, ".\n"),
        "gl_prose": ("Fai a transferencia á conta ", spaced, " antes do venres.\n"),
        "ga_prose": ("Uimhir IBAN: ", spaced, "\n"),
        "mk_prose": ("Уплатете на сметка ", spaced, ".\n"),
        "be_prose": ("Рахунак: ", spaced, "\n"),
        "ar_prose": ("رقم الحساب الدولي: ", i, "\n"),
        "he_iban": ("מספר IBAN: ", i, "\n"),
        "pt_br_prose": ("Chave para transferência internacional: ", spaced, "\n"),
        "fo_prose": ("Kontonummar: ", spaced, "\n"),
        "eo_prose": ("Bonvolu pagi al ", i, ".\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4(r)
    form = r.choice(["haproxy", "traefik_json", "nginx_error", "apache_error", "syslog_sd", "cisco_asa", "fortigate",
                     "srx_flow", "bind_query", "kea_lease", "rails", "phoenix", "redis_accept", "journald",
                     "ansible_inv", "frr_neighbor", "haproxy_server", "lv_prose", "eu_prose", "gl_prose", "mk_prose",
                     "kk_prose", "mn_prose", "zu_prose"])
    parts = {
        "haproxy": ["Dec  6 09:14:02 lb1 haproxy[2231]: ", (ip, "ipv4"), ":52144 [06/Dec/2026:09:14:02.118] fe_https~ "
                    "be_app/web1 0/0/1/12/13 200 1234 - - ---- 1/1/0/0/0 0/0 \"GET / HTTP/1.1\"\n"],
        "traefik_json": ["{\"ClientHost\":\"", (ip, "ipv4"), "\",\"DownstreamStatus\":200,\"RequestPath\":\"/api\"}\n"],
        "nginx_error": ["2026/12/06 09:14:02 [error] 2231#2231: *81 upstream timed out, client: ", (ip, "ipv4"),
                        ", server: example.lv, request: \"GET / HTTP/1.1\"\n"],
        "apache_error": ["[Sun Dec 06 09:14:02.118211 2026] [proxy:error] [pid 2231] [client ", (ip, "ipv4"),
                         ":52144] AH00898: Error reading from remote server\n"],
        "syslog_sd": ["<134>1 2026-12-06T09:14:02.118Z fw1 audit - ID47 [origin ip=\"", (ip, "ipv4"),
                      "\" software=\"fwd\"] session opened\n"],
        "cisco_asa": ["%ASA-6-302013: Built inbound TCP connection 81 for outside:", (ip, "ipv4"), "/52144 (",
                      (ip, "ipv4"), "/52144) to inside:", (ip2, "ipv4"), "/443 (", (ip2, "ipv4"), "/443)\n"],
        "fortigate": ["date=2026-12-06 time=09:14:02 devname=\"FGT60F\" type=\"traffic\" srcip=", (ip, "ipv4"),
                      " srcport=52144 dstip=", (ip2, "ipv4"), " dstport=443 action=\"accept\"\n"],
        "srx_flow": ["RT_FLOW_SESSION_CREATE [junos@2636.1.1.1.2.129 source-address=\"", (ip, "ipv4"),
                     "\" source-port=\"52144\" destination-address=\"", (ip2, "ipv4"), "\" destination-port=\"443\"]\n"],
        "bind_query": ["06-Dec-2026 09:14:02.118 queries: info: client @0x7f3a1c0 ", (ip, "ipv4"),
                       "#53312 (example.lv): query: example.lv IN A +E(0)K (", (ip2, "ipv4"), ")\n"],
        "kea_lease": ["INFO  [kea-dhcp4.leases/2231] DHCP4_LEASE_ALLOC [hwtype=1 3c:22:fb:1a:2b:3c], cid=[no info], "
                      "tid=0x5a1b: lease ", (ip, "ipv4"), " has been allocated for 4000 seconds\n"],
        "rails": ["Started GET \"/orders/81\" for ", (ip, "ipv4"), " at 2026-12-06 09:14:02 +0200\n"],
        "phoenix": ["09:14:02.118 request_id=F5a1b2c3 remote_ip=", (ip, "ipv4"), " [info] GET /api/orders\n"],
        "redis_accept": ["2231:M 06 Dec 2026 09:14:02.118 - Accepted ", (ip, "ipv4"), ":52144\n"],
        "journald": ["{\"_HOSTNAME\":\"web1\",\"SYSLOG_IDENTIFIER\":\"sshd\",\"MESSAGE\":\"Accepted publickey for ops from ",
                     (ip, "ipv4"), " port 52144 ssh2\"}\n"],
        "ansible_inv": ["[web]\nweb1 ansible_host=", (ip, "ipv4"), " ansible_user=ops\n"],
        "frr_neighbor": ["router bgp 65001\n neighbor ", (ip, "ipv4"), " remote-as 65002\n"],
        "haproxy_server": ["backend be_app\n    server web1 ", (ip, "ipv4"), ":8080 check inter 2s\n"],
        "lv_prose": ["Servera IP adrese ir ", (ip, "ipv4"), ", lūdzu pārbaudiet ugunsmūri.\n"],
        "eu_prose": ["Zerbitzariaren IP helbidea ", (ip, "ipv4"), " da.\n"],
        "gl_prose": ["O enderezo IP do servidor é ", (ip, "ipv4"), ".\n"],
        "mk_prose": ["IP адресата на серверот е ", (ip, "ipv4"), ".\n"],
        "kk_prose": ["Сервердің IP мекенжайы: ", (ip, "ipv4"), "\n"],
        "mn_prose": ["Серверийн IP хаяг ", (ip, "ipv4"), " байна.\n"],
        "zu_prose": ["Ikheli le-IP leseva ngu-", (ip, "ipv4"), ".\n"],
    }[form]
    _seq(doc, form, parts)


def i_ipv6(r, doc, m):
    ip, ip2 = _v6(r), _v6(r)
    form = r.choice(["haproxy6", "nginx_error6", "apache_error6", "fortigate6", "bind_query6", "kea6", "rails6",
                     "phoenix6", "journald6", "ansible_inv6", "frr_neighbor6", "traefik6", "lv_prose", "eu_prose",
                     "gl_prose", "mk_prose"])
    parts = {
        "haproxy6": ["Dec  6 09:14:02 lb1 haproxy[2231]: ", (ip, "ipv6"), ":52144 [06/Dec/2026:09:14:02.118] fe_https\n"],
        "nginx_error6": ["2026/12/06 09:14:02 [error] 2231#2231: *81 open() failed, client: ", (ip, "ipv6"),
                         ", server: example.lv\n"],
        "apache_error6": ["[Sun Dec 06 09:14:02.118211 2026] [core:error] [pid 2231] [client [", (ip, "ipv6"),
                          "]:52144] AH00126: Invalid URI in request\n"],
        "fortigate6": ["date=2026-12-06 time=09:14:02 type=\"traffic\" srcip=", (ip, "ipv6"), " dstip=", (ip2, "ipv6"),
                       " action=\"deny\"\n"],
        "bind_query6": ["06-Dec-2026 09:14:02.118 queries: info: client @0x7f3a1c0 ", (ip, "ipv6"),
                        "#53312 (example.lv): query: example.lv IN AAAA +\n"],
        "kea6": ["INFO  [kea-dhcp6.leases/2231] DHCP6_LEASE_ALLOC duid=[00:03:00:01:3c:22:fb:1a:2b:3c]: lease for address ",
                 (ip, "ipv6"), " and iaid=1 has been allocated\n"],
        "rails6": ["Started POST \"/login\" for ", (ip, "ipv6"), " at 2026-12-06 09:14:02 +0200\n"],
        "phoenix6": ["09:14:02.118 request_id=F5a1b2c3 remote_ip=", (ip, "ipv6"), " [info] POST /login\n"],
        "journald6": ["{\"MESSAGE\":\"Failed password for ops from ", (ip, "ipv6"), " port 52144 ssh2\"}\n"],
        "ansible_inv6": ["db1 ansible_host=", (ip, "ipv6"), " ansible_port=2222\n"],
        "frr_neighbor6": [" neighbor ", (ip, "ipv6"), " remote-as 65002\n"],
        "traefik6": ["{\"ClientAddr\":\"[", (ip, "ipv6"), "]:52144\",\"RequestHost\":\"example.lv\"}\n"],
        "lv_prose": ["Klients pieslēdzās no adreses ", (ip, "ipv6"), " vakar.\n"],
        "eu_prose": ["Bezeroaren IPv6 helbidea ", (ip, "ipv6"), " da.\n"],
        "gl_prose": ["O enderezo IPv6 do cliente é ", (ip, "ipv6"), ".\n"],
        "mk_prose": ["IPv6 адреса: ", (ip, "ipv6"), "\n"],
    }[form]
    _seq(doc, form, parts)


def i_api_key(r, doc, m):
    form = r.choice([
        "msmtprc", "ldap_bindpw", "slapd_rootpw", "frr_bgp_password", "haproxy_userlist", "pgbouncer_userlist",
        "postfix_sasl_passwd", "tomcat_users", "wp_config", "spring_props", "grafana_ini", "alertmanager",
        "sssd_authtok", "offlineimap", "ansible_become", "sshpass", "keytool_storepass", "openssl_passout",
        "htpasswd_b", "sql_identified_by", "pg_create_role", "tsql_login", "mongo_create_user", "abap", "ada",
        "lisp", "racket", "prolog", "gleam", "odin", "batch_set", "applescript", "apex_named_cred", "scala",
        "planetscale", "tailscale", "shopify"])
    t = _tok(r, r.randint(16, 32))
    lead, v, tail = {
        "msmtprc": ("account default\nhost smtp.example.lv\nport 587\nauth on\nuser ops\npassword ", t, "\n"),
        "ldap_bindpw": ("BASE dc=example,dc=lv\nBINDDN cn=reader,dc=example,dc=lv\nbindpw ", t, "\n"),
        "slapd_rootpw": ("database mdb\nsuffix \"dc=example,dc=lv\"\nrootdn \"cn=admin,dc=example,dc=lv\"\nrootpw ", t, "\n"),
        "frr_bgp_password": ("router bgp 65001\n neighbor PEERS peer-group\n neighbor PEERS password ", t, "\n"),
        "haproxy_userlist": ("userlist stats_users\n    user admin insecure-password ", t, "\n"),
        "pgbouncer_userlist": ("\"app_ro\" \"", t, "\"\n"),
        "postfix_sasl_passwd": ("[smtp.example.lv]:587 relay:", t, "\n"),
        "tomcat_users": ("<tomcat-users>\n  <user username=\"deployer\" password=\"", t, "\" roles=\"manager-script\"/>\n"),
        "wp_config": ("define( 'DB_USER', 'wp' );\ndefine( 'DB_PASSWORD', '", t, "' );\n"),
        "spring_props": ("spring.datasource.url=jdbc:postgresql://db:5432/app\nspring.datasource.password=", t, "\n"),
        "grafana_ini": ("[security]\nadmin_user = admin\nadmin_password = ", t, "\n"),
        "alertmanager": ("global:\n  smtp_auth_username: alerts\n  smtp_auth_password: '", t, "'\n"),
        "sssd_authtok": ("[domain/example.lv]\nldap_default_bind_dn = cn=sssd,dc=example,dc=lv\nldap_default_authtok = ", t, "\n"),
        "offlineimap": ("[Repository Remote]\ntype = IMAP\nremoteuser = ops\nremotepass = ", t, "\n"),
        "ansible_become": ("[db]\ndb1 ansible_user=ops ansible_become_pass=", t, "\n"),
        "sshpass": ("sshpass -p '", t, "' ssh -l ops bastion.example.lv uptime\n"),
        "keytool_storepass": ("keytool -list -keystore server.jks -storepass ", t, "\n"),
        "openssl_passout": ("openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:", t, "\n"),
        "htpasswd_b": ("htpasswd -b -B /etc/nginx/.htpasswd ops ", t, "\n"),
        "sql_identified_by": ("ALTER USER 'app'@'%' IDENTIFIED BY '", t, "';\n"),
        "pg_create_role": ("CREATE ROLE reporting LOGIN PASSWORD '", t, "';\n"),
        "tsql_login": ("CREATE LOGIN etl WITH PASSWORD = N'", t, "', CHECK_POLICY = OFF;\n"),
        "mongo_create_user": ("db.createUser({ user: \"app\", pwd: \"", t, "\", roles: [\"readWrite\"] })\n"),
        "abap": ("  CONSTANTS lc_api_key TYPE string VALUE '", t, "'.\n"),
        "ada": ("   Api_Token : constant String := \"", t, "\";\n"),
        "lisp": ("(defvar *api-secret* \"", t, "\")\n"),
        "racket": ("(define api-token \"", t, "\")\n"),
        "prolog": ("api_key(prod, '", t, "').\n"),
        "gleam": ("pub const api_token = \"", t, "\"\n"),
        "odin": ("API_SECRET :: \"", t, "\"\n"),
        "batch_set": ("set \"DEPLOY_PASSWORD=", t, "\"\n"),
        "applescript": ("set apiToken to \"", t, "\"\n"),
        "apex_named_cred": ("req.setHeader('X-Api-Key', '", t, "');\n"),
        "scala": ("  val clientSecret = \"", t, "\"\n"),
        "planetscale": ("PLANETSCALE_PASSWORD=", "pscale_pw_" + _tok(r, 43, AN + "_"), "\n"),
        "tailscale": ("tailscale up --authkey=", "tskey-auth-" + _s(r, AN, 17) + "-" + _s(r, AN, 33), "\n"),
        "shopify": ("X-Shopify-Access-Token: ", "shpss_" + _s(r, HEX, 32), "\n"),
    }[form]
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["jwt_scheme", "grpc_metadata", "mqtt_password", "alb_cookie", "abap", "ada", "scala",
                     "applescript", "lv_prose", "eu_prose", "batch_set", "journald"])
    lead, tail = {
        "jwt_scheme": ("Authorization: JWT ", "\n"),
        "grpc_metadata": ("metadata: [authorization: bearer ", "]\n"),
        "mqtt_password": ("mosquitto_pub -h mqtt.example.lv -u unused -P ", " -t devices/81/events -m '{}'\n"),
        "alb_cookie": ("Cookie: AWSELBAuthSessionCookie-0=", "; lang=lv\n"),
        "abap": ("  lv_bearer = '", "'.\n"),
        "ada": ("   Token : constant String := \"", "\";\n"),
        "scala": ("  val idToken = \"", "\"\n"),
        "applescript": ("set idToken to \"", "\"\n"),
        "lv_prose": ("Lūk, mans piekļuves marķieris: ", " (derīgs stundu).\n"),
        "eu_prose": ("Hona hemen nire tokena: ", "\n"),
        "batch_set": ("set ACCESS_TOKEN=", "\n"),
        "journald": ("{\"MESSAGE\":\"auth ok token=", " user=ops\"}\n"),
    }[form]
    _put(doc, lead, m.jwt(r), "jwt", form, tail)


def i_private_key(r, doc, m):
    k, kind = m.pem(r)
    form = r.choice(["ps_here_string", "ada_concat", "racket_string", "sql_insert", "lv_prose", "eu_prose",
                     "ldif_base64_free", "ansible_copy", "tsql_literal", "scala_triple"])
    lines = k.split("\n")
    if form == "ps_here_string":
        lead, v, tail = "$key = @\"\n", k, "\n\"@\n"
    elif form == "ada_concat":
        # Ada has no multiline literal: each line a string joined with `& ASCII.LF &`.
        lead, v, tail = "   Key : constant String :=\n     \"", "\" & ASCII.LF &\n     \"".join(lines), "\";\n"
    elif form == "racket_string":
        lead, v, tail = "(define signing-key \"", k, "\")\n"
    elif form == "sql_insert":
        lead, v, tail = "INSERT INTO tls_keys (host, pem) VALUES ('lb1', '", k, "');\n"
    elif form == "lv_prose":
        lead, v, tail = "Servera privātā atslēga:\n", k, "\nLūdzu, nedalieties ar to.\n"
    elif form == "eu_prose":
        lead, v, tail = "Gako pribatua:\n", k, "\nEz partekatu inorekin.\n"
    elif form == "ldif_base64_free":
        lead, v, tail = "dn: cn=lb1,ou=hosts,dc=example,dc=lv\ndescription: ", k.replace("\n", "\n "), "\n"
    elif form == "ansible_copy":
        lead, v, tail = "- copy:\n    dest: /etc/ssl/private/lb1.key\n    content: |\n      ", k.replace("\n", "\n      "), "\n"
    elif form == "tsql_literal":
        lead, v, tail = "DECLARE @pem nvarchar(max) = N'", k, "';\n"
    else:
        lead, v, tail = "  val key = \"\"\"", k, "\"\"\"\n"
    _put(doc, lead, v, "private_key", "%s_%s" % (form, kind), tail)


def i_url(r, doc, m):
    pw = _tok(r, r.randint(10, 20)) + r.choice(["", "", "-", "_", ".", "%40" + _d(r, 2)])
    form = r.choice(["redis_empty_user", "socks5_proxy", "https_proxy_env", "svn_https", "irc", "influx",
                     "cassandra", "git_credentials", "ansible_repo", "lv_prose", "eu_prose", "scala", "batch_set"])
    lead, tail = {
        "redis_empty_user": ("REDIS_URL=rediss://:", "@cache.example.lv:6380/0\n"),
        "socks5_proxy": ("ALL_PROXY=socks5h://ops:", "@proxy.example.lv:1080\n"),
        "https_proxy_env": ("export https_proxy=http://build:", "@squid.example.lv:3128\n"),
        "svn_https": ("svn checkout https://ci:", "@svn.example.lv/repos/app/trunk app\n"),
        "irc": ("/connect ircs://bot:", "@irc.example.lv:6697/#ops\n"),
        "influx": ("INFLUX_URL=influxdb://telegraf:", "@metrics.example.lv:8086/telegraf\n"),
        "cassandra": ("cqlsh_url: cassandra://app:", "@cass1.example.lv:9042/orders\n"),
        "git_credentials": ("# ~/.git-credentials\nhttps://jberzins:", "@git.example.lv\n"),
        "ansible_repo": ("- git:\n    repo: https://deploy:", "@git.example.lv/ops/site.git\n"),
        "lv_prose": ("Pieslēdzieties caur https://janis:", "@dav.example.lv/ un augšupielādējiet failus.\n"),
        "eu_prose": ("Konektatu hemen: https://miren:", "@fitxategiak.example.eus/\n"),
        "scala": ("  val dsn = \"postgresql://etl:", "@db.example.lv:5432/dw\"\n"),
        "batch_set": ("set DATABASE_URL=mysql://app:", "@db.example.lv:3306/shop\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def _gs1(body):
    """`body` with its GS1 mod-10 check digit (weights 3, 1, ... from the right)."""
    total = sum(int(c) * (3 if i % 2 == 0 else 1) for i, c in enumerate(reversed(body)))
    return body + str((10 - total % 10) % 10)


def _iso6346(r):
    """A container code: owner (3 letters + U), serial, ISO 6346 check digit."""
    vals = {c: v for c, v in zip(UP, [10, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 23, 24, 25, 26, 27, 28, 29, 30, 31,
                                      32, 34, 35, 36, 37, 38])}
    code = _s(r, UP, 3) + "U" + _d(r, 6)
    total = sum((vals[c] if c.isalpha() else int(c)) * 2 ** i for i, c in enumerate(code))
    return code + str(total % 11 % 10)


def i_look(r, doc, m):
    q = r.randint
    kind = r.choice([
        "snmp_oid", "windows_sid", "windows_build", "issn", "ean13", "sscc", "container_code", "bgp_community",
        "bgp_large_community", "mac_address", "haskell_sig", "go_sum", "docker_digest", "ssh_pubkey", "pgp_pubkey",
        "aws_arn", "doi", "arxiv", "nmea", "edifact_unb", "unity_version", "maven_snapshot", "lv_outline",
        "eu_outline", "mk_outline", "date_trailing_dot", "kernel_release", "ups_tracking", "asn_path",
        "haproxy_timers", "fortigate_sessionid", "srx_junos_enterprise", "bind_serial_query", "asa_msgid",
        "prolog_clause", "ada_range", "chrome_ua", "apex_id"])
    lead, v, tail = {
        "snmp_oid": ("snmpget -v2c -c public lb1 ", "1.3.6.1.4.1.%d.%d.%d.%d" % (q(2000, 60000), q(1, 9), q(1, 20), q(1, 9)), "\n"),
        "windows_sid": ("Security ID:\t\t", "S-1-5-21-%d-%d-%d-%d" % (q(10 ** 9, 4 * 10 ** 9), q(10 ** 9, 4 * 10 ** 9), q(10 ** 7, 10 ** 9), q(1000, 9999)), "\n"),
        "windows_build": ("OS Version: ", "10.0.%d.%d" % (q(17763, 26100), q(1, 5000)), "\n"),
        "issn": ("ISSN ", "%s-%s" % (_d(r, 4), _d(r, 3) + r.choice(D + "X")), " (online)\n"),
        "ean13": ("EAN: ", _gs1(r.choice(["400", "475", "590", "869"]) + _d(r, 9)), "\n"),
        "sscc": ("(00) ", _gs1("0" + _d(r, 16)), " SSCC\n"),
        "container_code": ("Container no.: ", _iso6346(r), "\n"),
        "bgp_community": ("set community ", "%d:%d" % (q(64512, 65534), q(1, 9999)), " additive\n"),
        "bgp_large_community": ("set large-community ", "%d:%d:%d" % (q(200000, 400000), q(1, 999), q(1, 999)), "\n"),
        "mac_address": ("link/ether ", ":".join(_s(r, HEX, 2) for _ in range(6)), " brd ff:ff:ff:ff:ff:ff\n"),
        "haskell_sig": ("", "lookupUser :: UserId -> Map.Map UserId User -> Maybe User", "\n"),
        "go_sum": ("golang.org/x/net v0.%d.0 " % q(10, 40), "h1:" + _tok(r, 43, AN + "+/") + "=", "\n"),
        "docker_digest": ("FROM alpine@", "sha256:" + _s(r, HEX, 64), "\n"),
        "ssh_pubkey": ("ssh-ed25519 ", "AAAAC3NzaC1lZDI1NTE5AAAAI" + _tok(r, 43, AN + "+/"), " ops@laptop\n"),
        "pgp_pubkey": ("", "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n" + "\n".join(_s(r, AN + "+/", 64) for _ in range(q(3, 6))) + "\n=" + _s(r, AN, 4) + "\n-----END PGP PUBLIC KEY BLOCK-----", "\n"),
        "aws_arn": ("Resource: ", "arn:aws:iam::%s:role/deploy" % _d(r, 12), "\n"),
        "doi": ("https://doi.org/", "10.%d/%s.%d" % (q(1000, 9999), r.choice(["nphys", "s41586", "jacs"]), q(1000, 99999)), "\n"),
        "arxiv": ("arXiv:", "%02d%02d.%05d" % (q(15, 26), q(1, 12), q(1, 29999)), "v%d [cs.CR]\n" % q(1, 3)),
        "nmea": ("", "$GPGGA,%02d%02d%02d.00,%04d.%03d,N,%05d.%03d,E,1,08,0.9,%d.0,M,46.9,M,,*%s" % (q(0, 23), q(0, 59), q(0, 59), q(1000, 8999), q(0, 999), q(100, 17999), q(0, 999), q(1, 900), _s(r, UHEX, 2)), "\n"),
        "edifact_unb": ("", "UNB+UNOC:3+%s:14+%s:14+%02d%02d%02d:%02d%02d+%s" % (_d(r, 13), _d(r, 13), q(20, 26), q(1, 12), q(1, 28), q(0, 23), q(0, 59), _d(r, 6)), "'\n"),
        "unity_version": ("m_EditorVersion: ", "%d.%d.%df%d" % (q(2020, 2023), q(1, 3), q(1, 40), q(1, 3)), "\n"),
        "maven_snapshot": ("<version>", "%d.%d.%d.%d-SNAPSHOT" % (q(1, 9), q(0, 20), q(0, 20), q(1, 99)), "</version>\n"),
        "lv_outline": ("Skatīt līguma punktu ", "%d.%d.%d.%d" % (q(1, 12), q(1, 9), q(1, 9), q(1, 9)), " un pielikumu.\n"),
        "eu_outline": ("Ikus ", "%d.%d.%d.%d" % (q(1, 12), q(1, 9), q(1, 9), q(1, 9)), " atala araudian.\n"),
        "mk_outline": ("Види точка ", "%d.%d.%d.%d" % (q(1, 12), q(1, 9), q(1, 9), q(1, 9)), " од договорот.\n"),
        "date_trailing_dot": ("Datums: ", "%02d.%02d.%d." % (q(1, 28), q(1, 12), q(2020, 2026)), "\n"),
        "kernel_release": ("Linux lb1 ", "6.%d.0-%d-amd64" % (q(1, 12), q(1, 30)), " #1 SMP PREEMPT_DYNAMIC\n"),
        "ups_tracking": ("Tracking: ", "1Z" + _s(r, UP + D, 6) + _d(r, 10), "\n"),
        "asn_path": ("AS path: ", " ".join(str(q(1000, 65000)) for _ in range(q(3, 6))), " i\n"),
        "haproxy_timers": ("be_app/web1 ", "%d/%d/%d/%d/%d" % (q(0, 9), q(0, 9), q(0, 9), q(10, 99), q(10, 99)), " 200 1234\n"),
        "fortigate_sessionid": ("sessionid=", str(q(10 ** 8, 10 ** 10)), " proto=6 policyid=1\n"),
        "srx_junos_enterprise": ("[junos@", "2636.1.1.1.2.%d" % q(20, 199), " reason=\"idle timeout\"]\n"),
        "bind_serial_query": ("received notify for zone 'example.lv': serial ", "%d%02d%02d%02d" % (q(2020, 2026), q(1, 12), q(1, 28), q(0, 99)), "\n"),
        "asa_msgid": ("%ASA-", "%d-%d" % (q(1, 7), q(100000, 999999)), ": Teardown TCP connection\n"),
        "prolog_clause": ("", "between(1, %d, X), X mod %d =:= 0" % (q(100, 999), q(2, 9)), ".\n"),
        "ada_range": ("   type Port is range ", "%d .. %d" % (q(0, 1023), q(1024, 65535)), ";\n"),
        "chrome_ua": ("User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/",
                      "%d.0.%d.%d" % (q(110, 131), q(5000, 6999), q(1, 250)), " Safari/537.36\n"),
        "apex_id": ("Id recordId = '", "001" + _s(r, AN, 12), "';\n"),
    }[kind]
    doc.t(lead)
    doc.look(v, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["\n", ";; ----\n", "-- ====\n", "REM ----\n", "% ----\n", "* ----\n"]


def heldout8_doc(r, doc, m):
    """One text of the ninth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
