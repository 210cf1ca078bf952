"""The sixth held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout6`; not run on its own.

A seventh template family, written and committed before any detector
change of the fourth round (the round that closes heldout5's and
heldout4's misses), from real-world formats and not from the detectors'
code. The session that wrote it knew heldout5's miss classes (api_key in
Vault, Go templates, Makefiles, Bicep, Pulumi YAML, .netrc, IMAP/SMTP
AUTH, MySQL `-p`, Cisco/Juniper; national phones after `Tel.:`; dotted
quads after outline words) and the detectors' source.

Surroundings that no other family writes: HL7 v2 segments, EDI X12,
SWIFT MT103/MT940, iCalendar, mbox, CEF and LEEF events, W3C (IIS) and
Squid access logs, netfilter kernel lines, sshd and fail2ban logs,
Dovecot, Zeek TSV, Suricata eve.json, AWS VPC flow logs and CloudTrail,
Android logcat, WireGuard, OpenVPN, strongSwan, dhcpd leases, pg_hba.conf,
.pgpass, my.cnf, odbc.ini, JDBC and ADO.NET connection strings, Asterisk
pjsip, FreeRADIUS, HOCON, Logstash, fluent-bit, Caddyfile, Envoy,
Puppet, SaltStack, Vagrantfile, crontab, launchd plists, Windows .reg,
Postman collections, and code in Haskell (cabal), OCaml (opam), Clojure
(EDN), Erlang, Dart, R, Julia, MATLAB, Objective-C, VBA and Tcl; LaTeX,
reStructuredText, AsciiDoc and Org-mode headers; prose in Finnish,
Norwegian, Danish, Estonian, Lithuanian, Croatian, Bulgarian, Malay,
Filipino, Swahili, Urdu, Tamil and Georgian; phone numbers and IBANs of
those countries in their own groupings; and look-alikes (HL7 and EDI
control numbers, SWIFT references and BICs, ISO 11649 creditor
references, iCalendar stamps, CEF device versions, Suricata flow ids,
VPC account ids, Fibre Channel WWNs, Android build fingerprints, Oracle
five-part versions, Erlang `vsn`, cabal versions, NDC and ICD codes,
CVE and ATT&CK ids, scp-style git remotes, outline numbers after
Finnish, Danish and Croatian words).

It reuses only the value makers of `detect_corpus.py` (card_number, jwt,
pem, group4) and the small ones of `detect_values.py`. It is the
project's own, like the others.
"""
import base64
from detect_values import AN, D, HEX, UP, _d, _nz, _s, _ssn, _tok, with_check, family_doc


NAMES = ["Matti Virtanen", "Kari Nordmann", "Mette Hansen", "Jaan Tamm", "Jonas Kazlauskas", "Ivana Horvat",
         "Георги Иванов", "Ahmad Faiz", "Juan dela Cruz", "Amina Wanjiru", "عائشہ خان", "முருகன்", "ნინო ბერიძე"]


def _iban(r):
    country, bban = r.choice([
        ("FI", lambda: _d(r, 14)),
        ("NO", lambda: _d(r, 11)),
        ("DK", lambda: _d(r, 14)),
        ("EE", lambda: _d(r, 16)),
        ("LT", lambda: _d(r, 16)),
        ("LV", lambda: _s(r, UP, 4) + _d(r, 13)),
        ("HR", lambda: _d(r, 17)),
        ("BG", lambda: _s(r, UP, 4) + _d(r, 6) + _s(r, UP + D, 8)),
        ("IS", lambda: _d(r, 22)),
        ("IE", lambda: _s(r, UP, 4) + _d(r, 14)),
        ("GE", lambda: _s(r, UP, 2) + _d(r, 16)),
        ("KZ", lambda: _d(r, 3) + _s(r, UP + D, 13)),
    ])
    return with_check(country, bban())


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([8, 31, 46, 77, 91, 100, 109, 151, 185, 195, 212]), r.randint(0, 255),
                            r.randint(0, 255), r.randint(1, 254))


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2a01:%s:%s:%s::%s" % (g(), g(), g(), g()),
        lambda: "2406:%s:%s::%s:%s" % (g(), g(), g(), g()),
        lambda: "2c0f:%s:%s::%s" % (g(), g(), g()),
        lambda: ":".join("%04X" % r.randint(0, 0xffff) for _ in range(8)),
    ])()


def _put(doc, lead, value, cls, form, tail):
    doc.t(lead)
    doc.item(value, cls, "s_" + form)
    doc.t(tail)


def _seq(doc, form, parts):
    """Text and items in turn: a str is text, a (value, class) pair an item."""
    for p in parts:
        if isinstance(p, tuple):
            doc.item(p[0], p[1], "s_" + form)
        else:
            doc.t(p)


# ------------------------------------------------------------------ items

def i_email(r, doc, m):
    e = "%s@%s" % (r.choice(["matti.virtanen", "kari.nordmann", "mette", "jaan.tamm", "jonas.k", "ivana_h",
                             "ahmad.faiz", "juan.delacruz", "amina.w", "ops-oncall", "laskutus"]),
                   r.choice(["esimerkki.fi", "eksempel.no", "eksempel.dk", "naide.ee", "pavyzdys.lt",
                             "primjer.hr", "primer.bg", "contoh.com.my", "halimbawa.ph", "mfano.co.ke",
                             "dæmi.is"]))
    form = r.choice(["ical_attendee", "mbox_from", "hl7_pid", "cef_suser", "leef_usr", "dovecot", "cabal",
                     "opam", "erlang", "elisp_author", "latex_author", "rst_field", "asciidoc", "org",
                     "puppet", "logcat", "fi_prose", "no_prose", "lt_prose", "sw_prose", "ur_prose", "ta_prose",
                     "ka_prose"])
    lead, tail = {
        "ical_attendee": ("ATTENDEE;CN=%s;ROLE=REQ-PARTICIPANT:mailto:" % r.choice(NAMES[:6]), "\r\n"),
        "mbox_from": ("From ", " Sat Dec  5 09:14:02 2026\n"),
        "hl7_pid": ("PID|1||448812^^^HOSP^MR||Virtanen^Matti||19800101|M|||||^NET^Internet^", "\r"),
        "cef_suser": ("CEF:0|Acme|Gateway|3.1|4001|Login succeeded|3|suser=", " act=allow cs1Label=realm cs1=corp\n"),
        "leef_usr": ("LEEF:2.0|Acme|Proxy|2.4|login|^|usrName=", "^proto=TCP^sev=2\n"),
        "dovecot": ("Dec  5 09:14:02 mail dovecot: imap-login: Login: user=<", ">, method=PLAIN, mpid=4242, TLS\n"),
        "cabal": ("maintainer:          ", "\n"),
        "opam": ("maintainer: \"", "\"\n"),
        "erlang": ("{contact, \"", "\"},\n"),
        "elisp_author": (";; Author: Kari Nordmann <", ">\n"),
        "latex_author": ("\\author{Jaan Tamm \\\\ \\texttt{", "}}\n"),
        "rst_field": (":Contact: ", "\n"),
        "asciidoc": (":email: ", "\n"),
        "org": ("#+EMAIL: ", "\n"),
        "puppet": ("  email => '", "',\n"),
        "logcat": ("12-05 09:14:02.311  1234  1288 D AccountSync: signed in as ", "\n"),
        "fi_prose": ("Ota yhteyttä osoitteeseen ", " milloin tahansa.\n"),
        "no_prose": ("Send en e-post til ", " så svarer vi raskt.\n"),
        "lt_prose": ("Rašykite adresu ", ".\n"),
        "sw_prose": ("Tuma barua pepe kwa ", " leo.\n"),
        "ur_prose": ("براہ کرم ", " پر ای میل کریں۔\n"),
        "ta_prose": ("மின்னஞ்சல்: ", "\n"),
        "ka_prose": ("ელფოსტა: ", "\n"),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    form = r.choice(["fi_mobile", "no_mobile", "dk_mobile", "ee_mobile", "lt_mobile", "hr_mobile", "bg_mobile",
                     "my_mobile", "ph_mobile", "ke_mobile", "pk_mobile", "ge_mobile", "is_mobile", "ie_mobile",
                     "us_ical_tel", "us_pjsip_callerid", "us_hl7_phone", "us_edi_per", "us_vba", "us_r_df",
                     "fi_national_ctx", "hr_national_ctx"])
    a, x, s = "%s%s" % (_nz(r), _d(r, 2)), "%s%s" % (_nz(r), _d(r, 2)), _d(r, 4)
    lead, p, tail = {
        "fi_mobile": ("Puhelin: ", "+358 40 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "no_mobile": ("Mobil: ", "+47 4%s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 3)), "\n"),
        "dk_mobile": ("Tlf.: ", "+45 2%s %s %s %s" % (_d(r, 1), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "ee_mobile": ("Telefon: ", "+372 5%s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "lt_mobile": ("Tel. nr.: ", "+370 6%s %s" % (_d(r, 2), _d(r, 5)), "\n"),
        "hr_mobile": ("Mob: ", "+385 9%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)), "\n"),
        "bg_mobile": ("Телефон: ", "+359 88 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "my_mobile": ("No. telefon: ", "+60 1%s-%s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)), "\n"),
        "ph_mobile": ("Numero ng telepono: ", "+63 9%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 4)), "\n"),
        "ke_mobile": ("M-Pesa: ", "+254 7%s %s" % (_d(r, 2), _d(r, 6)), "\n"),
        "pk_mobile": ("فون: ", "+92 3%s %s" % (_d(r, 2), _d(r, 7)), "\n"),
        "ge_mobile": ("ტელ: ", "+995 5%s %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "is_mobile": ("Sími: ", "+354 %s %s" % (_nz(r) + _d(r, 2), _d(r, 4)), "\n"),
        "ie_mobile": ("Fón: ", "+353 8%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)), "\n"),
        "us_ical_tel": ("ATTENDEE;CN=Front Desk:tel:", "+1-%s-%s-%s" % (a, x, s), "\r\n"),
        "us_pjsip_callerid": ("[6001]\ntype=endpoint\ncallerid=\"Front Desk\" <", "+1%s%s%s" % (a, x, s), ">\n"),
        "us_hl7_phone": ("PID|1||448812^^^HOSP^MR||Doe^Jane||19800101|F|||1 Main St^^Austin^TX^78701||",
                         "(%s)%s-%s" % (a, x, s), "^PRN^PH\r"),
        "us_edi_per": ("PER*IC*JANE DOE*TE*", "%s%s%s" % (a, x, s), "~\n"),
        "us_vba": ("Const SUPPORT_PHONE As String = \"", "+1 %s %s %s" % (a, x, s), "\"\n"),
        "us_r_df": ("  name       phone\n1 Jane  ", "%s-%s-%s" % (a, x, s), "\n"),
        "fi_national_ctx": ("puh. ", "040 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "hr_national_ctx": ("Telefon: ", "01 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
    }[form]
    # EDI's `TE` qualifier is no context word the detector documents: a
    # solid national number there is out of its scope (reported apart).
    doc.t(lead)
    doc.item(p, "phone", "s_" + form, form != "us_edi_per")
    doc.t(tail)


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["hl7_pid19", "edi_ref_sy", "xml_taxpayer", "hocon", "erlang_record", "r_df", "julia",
                     "tl_prose_spaced", "splunk", "clojure", "matlab", "objc"])
    lead, v, tail = {
        "hl7_pid19": ("PID|1||448812^^^HOSP^MR||Doe^Jane||19800101|F||||||||||", dashed, "\r"),
        # X12's `SY` qualifier names an SSN, but no documented context word
        # stands before the solid number: out of scope (reported apart).
        "edi_ref_sy": ("REF*SY*", a + g + s, "~\n"),
        "xml_taxpayer": ("<ns2:TaxpayerSSN>", a + g + s, "</ns2:TaxpayerSSN>\n"),
        "hocon": ("employee.ssn = \"", dashed, "\"\n"),
        "erlang_record": ("E = #employee{name = \"x\", ssn = \"", dashed, "\"},\n"),
        "r_df": ("  id  ssn          state\n1  7  ", dashed, "  NV\n"),
        "julia": ("emp = (name = \"x\", ssn = \"", dashed, "\")\n"),
        "tl_prose_spaced": ("Ang SSN ko ay ", "%s %s %s" % (a, g, s), ", pakitingnan.\n"),
        "splunk": ("2026-12-05T09:14:02Z host=hr01 action=update ssn=\"", dashed, "\" status=ok\n"),
        "clojure": ("{:employee/name \"x\" :employee/ssn \"", dashed, "\"}\n"),
        "matlab": ("emp.SSN = '", dashed, "';\n"),
        "objc": ("NSString *ssn = @\"", dashed, "\";\n"),
    }[form]
    doc.t(lead)
    doc.item(v, "us_ssn", "s_" + form, form != "edi_ref_sy")
    doc.t(tail)


def i_card(r, doc, m):
    c, kind = m.card_number(r)
    shown = ("%s %s %s" % (c[:4], c[4:10], c[10:])) if kind == "amex" else m.group4(c, r.choice([" ", "-", ""]))
    form = r.choice(["dart", "julia", "r_assign", "matlab", "vba", "tcl", "objc", "logcat", "hocon", "clojure",
                     "fi_prose", "da_prose", "hr_prose", "ms_prose", "sw_prose"])
    lead, v, tail = {
        "dart": ("final card = CardDetails(number: '", c, "', cvc: '123');\n"),
        "julia": ("card_number = \"", shown, "\"\n"),
        "r_assign": ("card_no <- \"", shown, "\"\n"),
        "matlab": ("cardNumber = '", c, "';\n"),
        "vba": ("CardNo = \"", shown, "\"\n"),
        "tcl": ("set card_number \"", c, "\"\n"),
        "objc": ("NSString *pan = @\"", c, "\";\n"),
        "logcat": ("12-05 09:14:02.311  1234  1288 W Checkout: tokenize failed for pan=", c, "\n"),
        "hocon": ("payment.test-card = \"", shown, "\"\n"),
        "clojure": ("{:card/number \"", shown, "\" :card/exp \"12/29\"}\n"),
        "fi_prose": ("Korttinumero: ", shown, "\n"),
        "da_prose": ("Mit kortnummer er ", shown, ", udløb 12/29.\n"),
        "hr_prose": ("Broj kartice: ", shown, "\n"),
        "ms_prose": ("Nombor kad kredit saya ialah ", shown, ".\n"),
        "sw_prose": ("Nambari ya kadi: ", shown, "\n"),
    }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = m.group4(i)
    form = r.choice(["mt103_59", "mt940_25", "hocon", "clojure", "dart", "da_prose", "et_prose", "lt_prose",
                     "hr_prose", "bg_prose", "fi_prose", "is_prose"])
    lead, v, tail = {
        "mt103_59": (":50K:/", i, "\nMATTI VIRTANEN\nHELSINKI\n"),
        "mt940_25": (":20:STMT2612050001\n:25:", i, "\n:28C:00042/001\n"),
        "hocon": ("payout.iban = \"", i, "\"\n"),
        "clojure": ("{:payee/iban \"", i, "\"}\n"),
        "dart": ("const payee = Payee(iban: '", i, "');\n"),
        "da_prose": ("Beløbet overføres til ", spaced, " senest fredag.\n"),
        "et_prose": ("Arvelduskonto: ", spaced, "\n"),
        "lt_prose": ("Sąskaitos numeris ", i, ".\n"),
        "hr_prose": ("Uplatite na račun ", spaced, ", poziv na broj 00 1234.\n"),
        "bg_prose": ("Банкова сметка (IBAN): ", i, "\n"),
        "fi_prose": ("Tilinumero: ", spaced, "\n"),
        "is_prose": ("Reikningsnúmer: ", spaced, "\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4(r)
    form = r.choice(["netfilter", "sshd_failed", "fail2ban", "squid", "iis_w3c", "zeek_conn", "vpc_flow",
                     "suricata", "cloudtrail", "wireguard", "openvpn", "dhcpd_lease", "pg_hba", "caddy", "envoy",
                     "smb_conf", "fi_prose", "hr_prose", "ms_prose"])
    parts = {
        "netfilter": ["Dec  5 09:14:02 fw kernel: [UFW BLOCK] IN=eth0 OUT= SRC=", (ip, "ipv4"), " DST=", (ip2, "ipv4"),
                      " LEN=60 TOS=0x00 PROTO=TCP SPT=52144 DPT=22\n"],
        "sshd_failed": ["Dec  5 09:14:02 bastion sshd[2231]: Failed password for invalid user admin from ", (ip, "ipv4"),
                        " port 52144 ssh2\n"],
        "fail2ban": ["2026-12-05 09:14:02,118 fail2ban.actions [811]: NOTICE [sshd] Ban ", (ip, "ipv4"), "\n"],
        "squid": ["1733390042.123    245 ", (ip, "ipv4"), " TCP_MISS/200 1532 GET http://example.com/ - HIER_DIRECT/",
                  (ip2, "ipv4"), " text/html\n"],
        "iis_w3c": ["2026-12-05 09:14:02 W3SVC1 ", (ip, "ipv4"), " GET /default.aspx - 443 - ", (ip2, "ipv4"),
                    " Mozilla/5.0 200 0 0 31\n"],
        "zeek_conn": ["1733390042.118\tCHhAvVGS1DHFjwGM9\t", (ip, "ipv4"), "\t52144\t", (ip2, "ipv4"), "\t443\ttcp\tssl\n"],
        "vpc_flow": ["2 123456789012 eni-0a1b2c3d4e5f ", (ip, "ipv4"), " ", (ip2, "ipv4"),
                     " 443 49152 6 20 4249 1733390040 1733390100 ACCEPT OK\n"],
        "suricata": ["{\"event_type\":\"alert\",\"src_ip\":\"", (ip, "ipv4"), "\",\"src_port\":52144,\"dest_ip\":\"",
                     (ip2, "ipv4"), "\",\"dest_port\":443}\n"],
        "cloudtrail": ["    \"sourceIPAddress\": \"", (ip, "ipv4"), "\",\n    \"userAgent\": \"aws-cli/2.15.0\",\n"],
        "wireguard": ["[Peer]\nPublicKey = <redacted>\nEndpoint = ", (ip, "ipv4"), ":51820\n"],
        "openvpn": ["remote ", (ip, "ipv4"), " 1194 udp\n"],
        "dhcpd_lease": ["lease ", (ip, "ipv4"), " {\n  starts 6 2026/12/05 09:14:02;\n}\n"],
        "pg_hba": ["host    all    report    ", (ip, "ipv4"), "/32    scram-sha-256\n"],
        "caddy": ["api.example.com {\n    reverse_proxy ", (ip, "ipv4"), ":8080\n}\n"],
        "envoy": ["          socket_address: { address: ", (ip, "ipv4"), ", port_value: 443 }\n"],
        "smb_conf": ["   hosts allow = ", (ip, "ipv4"), "\n"],
        "fi_prose": ["Palvelimen IP-osoite on ", (ip, "ipv4"), ", mutta se ei vastaa.\n"],
        "hr_prose": ["IP adresa poslužitelja je ", (ip, "ipv4"), ", provjerite vatrozid.\n"],
        "ms_prose": ["Alamat IP pelayan ialah ", (ip, "ipv4"), ".\n"],
    }[form]
    _seq(doc, form, parts)


def i_ipv6(r, doc, m):
    ip, ip2 = _v6(r), _v6(r)
    g = lambda: "%x" % r.randint(1, 0xffff)
    form = r.choice(["netfilter_v6", "sshd_v6", "wireguard_v6", "suricata_v6", "cloudtrail_v6", "zeek_v6",
                     "link_local_zone", "nat64", "pg_hba_v6", "fi_prose", "no_prose"])
    parts = {
        "netfilter_v6": ["kernel: [UFW BLOCK] IN=eth0 OUT= SRC=", (ip, "ipv6"), " DST=", (ip2, "ipv6"), " LEN=80 PROTO=TCP\n"],
        "sshd_v6": ["sshd[2231]: Accepted publickey for ops from ", (ip, "ipv6"), " port 52144 ssh2\n"],
        "wireguard_v6": ["Endpoint = [", (ip, "ipv6"), "]:51820\n"],
        "suricata_v6": ["{\"src_ip\":\"", (ip, "ipv6"), "\",\"dest_ip\":\"", (ip2, "ipv6"), "\"}\n"],
        "cloudtrail_v6": ["    \"sourceIPAddress\": \"", (ip, "ipv6"), "\",\n"],
        "zeek_v6": ["1733390042.118\tC8ba1a2\t", (ip, "ipv6"), "\t52144\t", (ip2, "ipv6"), "\t443\ttcp\n"],
        "link_local_zone": ["default via ", ("fe80::%s:%s:%s:%s" % (g(), g(), g(), g()), "ipv6"), "%eth0 proto ra\n"],
        "nat64": ["unbound: reply from ", ("64:ff9b::%d.%d.%d.%d" % (r.choice([31, 77, 151]), r.randint(0, 255),
                                                                    r.randint(0, 255), r.randint(1, 254)), "ipv6"),
                  " for example.com. AAAA IN\n"],
        "pg_hba_v6": ["host    all    report    ", (ip, "ipv6"), "/128    scram-sha-256\n"],
        "fi_prose": ["IPv6-osoite on ", (ip, "ipv6"), " tällä hetkellä.\n"],
        "no_prose": ["Klienten kom fra ", (ip, "ipv6"), " i går.\n"],
    }[form]
    _seq(doc, form, parts)


def i_api_key(r, doc, m):
    form = r.choice([
        "mycnf", "pgpass", "odbc_pwd", "jdbc_sqlserver", "adonet", "pjsip_auth", "freeradius", "wireguard_privkey",
        "ipsec_psk", "logstash", "fluentbit", "puppet", "salt_pillar", "vagrant_aws", "plist", "reg_file",
        "clojure_edn", "erlang_config", "haskell", "crontab_curl_u", "postman_kv", "totp_secret", "sendgrid",
        "digitalocean", "stripe_whsec", "hocon"])
    t = _tok(r, r.randint(16, 32))
    lead, v, tail = {
        "mycnf": ("[client]\nuser=backup\npassword=", t, "\nhost=db.internal\n"),
        "pgpass": ("db.internal:5432:app:report:", t, "\n"),
        "odbc_pwd": ("[AppDb]\nDriver=ODBC Driver 18 for SQL Server\nServer=db.internal\nUID=app\nPWD=", t, "\n"),
        "jdbc_sqlserver": ("jdbc:sqlserver://db.internal:1433;databaseName=app;user=sa;password=", t, ";encrypt=true\n"),
        "adonet": ("<add name=\"Db\" connectionString=\"Server=db.internal;User Id=sa;Password=", t, ";\" />\n"),
        "pjsip_auth": ("[6001]\ntype=auth\nauth_type=userpass\nusername=6001\npassword=", t, "\n"),
        "freeradius": ("bob     Cleartext-Password := \"", t, "\"\n"),
        "wireguard_privkey": ("[Interface]\nListenPort = 51820\nPrivateKey = ",
                              base64.b64encode(bytes(r.randint(0, 255) for _ in range(32))).decode(), "\n"),
        "ipsec_psk": ("%any %any : PSK \"", t, "\"\n"),
        "logstash": ("    user => \"logstash_writer\"\n    password => \"", t, "\"\n"),
        "fluentbit": ("[OUTPUT]\n    Name         http\n    HTTP_User    ingest\n    HTTP_Passwd  ", t, "\n"),
        "puppet": ("  mysql::db { 'app':\n    user     => 'app',\n    password => '", t, "',\n  }\n"),
        "salt_pillar": ("mysql.user: app\nmysql.pass: ", t, "\n"),
        "vagrant_aws": ("    aws.secret_access_key = \"", _tok(r, 40, AN + "/+"), "\"\n"),
        "plist": ("    <key>API_TOKEN</key>\n    <string>", t, "</string>\n"),
        "reg_file": ("[HKEY_LOCAL_MACHINE\\SOFTWARE\\Acme\\Agent]\n\"ServiceToken\"=\"", t, "\"\n"),
        "clojure_edn": ("{:db {:user \"app\" :password \"", t, "\"}}\n"),
        "erlang_config": ("  {api_key, \"", t, "\"},\n"),
        "haskell": ("apiKey :: Text\napiKey = \"", t, "\"\n"),
        "crontab_curl_u": ("0 3 * * * curl -fsS -u backup:", t, " https://backup.example.com/run\n"),
        "postman_kv": ("        {\"key\": \"x-api-key\", \"value\": \"", t, "\", \"type\": \"text\"}\n"),
        "totp_secret": ("otpauth://totp/Acme:ops?secret=", _tok(r, 32, UP + "234567"), "&issuer=Acme\n"),
        "sendgrid": ("SENDGRID=", "SG." + _tok(r, 22, AN + "_-") + "." + _tok(r, 43, AN + "_-"), "\n"),
        "digitalocean": ("doctl auth init --access-token ", "dop_v1_" + _s(r, HEX, 64), "\n"),
        "stripe_whsec": ("endpoint_secret = '", "whsec_" + _tok(r, 32), "'\n"),
        "hocon": ("db.password = \"", t, "\"\n"),
    }[form]
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["grpc_metadata", "postman_env", "oauth_fragment", "cookie", "hocon", "clojure", "logcat",
                     "dart"])
    lead, tail = {
        "grpc_metadata": ("metadata = [(\"authorization\", \"Bearer ", "\")]\n"),
        "postman_env": ("    {\"key\": \"access_token\", \"value\": \"", "\", \"enabled\": true}\n"),
        "oauth_fragment": ("302 Location: https://app.example.com/cb#id_token=", "&state=af0ifjsldkj\n"),
        "cookie": ("Cookie: theme=dark; auth_token=", "; lang=fi\n"),
        "hocon": ("auth.service-token = \"", "\"\n"),
        "clojure": ("(def token \"", "\")\n"),
        "logcat": ("12-05 09:14:02.311  1234  1288 D OkHttp: Authorization: Bearer ", "\n"),
        "dart": ("final idToken = '", "';\n"),
    }[form]
    _put(doc, lead, m.jwt(r), "jwt", form, tail)


def i_private_key(r, doc, m):
    k, kind = m.pem(r)
    form = r.choice(["hocon_triple", "clojure_str", "dart_raw", "puppet_heredoc", "salt_block", "julia_triple",
                     "erlang_bin"])
    ind = lambda s, n: "\n".join(" " * n + ln for ln in s.split("\n"))
    lead, v, tail = {
        "hocon_triple": ("tls.key = \"\"\"", k, "\"\"\"\n"),
        "clojure_str": ("(def signing-key \"", k, "\")\n"),
        "dart_raw": ("const pem = r'''\n", k, "\n''';\n"),
        "puppet_heredoc": ("  content => @(EOT),\n", k, "\n  | EOT\n"),
        # A YAML block: the item starts at BEGIN, after the indentation.
        "salt_block": ("tls:\n  key: |\n    ", ind(k, 4)[4:], "\n"),
        "julia_triple": ("key = \"\"\"\n", k, "\n\"\"\"\n"),
        "erlang_bin": ("Key = <<\"", k, "\">>,\n"),
    }[form]
    _put(doc, lead, v, "private_key", "%s_%s" % (form, kind), tail)


def i_url(r, doc, m):
    # Some passwords percent-encode a reserved character, as URLs must.
    pw = _tok(r, r.randint(10, 22)) + r.choice(["", "", "%21", "%40" + _d(r, 2)])
    form = r.choice(["rtsp_camera", "amqp_vhost", "redis_nouser", "mqtt", "socks5", "sftp", "svn_ssh",
                     "airflow_conn", "logstash_hosts", "couchdb", "influx", "git_plus"])
    lead, tail = {
        "rtsp_camera": ("ffmpeg -i rtsp://admin:", "@cam-03.local:554/Streaming/Channels/101 -c copy out.mp4\n"),
        "amqp_vhost": ("broker_url = \"amqp://celery:", "@rabbit.internal:5672/prod\"\n"),
        "redis_nouser": ("CACHE_URL=redis://:", "@cache.internal:6379/2\n"),
        "mqtt": ("mosquitto_sub -L mqtt://sensor:", "@broker.local:1883/home/# -v\n"),
        "socks5": ("ALL_PROXY=socks5h://proxy:", "@proxy.internal:1080\n"),
        "sftp": ("lftp sftp://deploy:", "@files.example.fi/upload\n"),
        "svn_ssh": ("svn checkout svn+ssh://builder:", "@svn.example.dk/repos/app/trunk\n"),
        "airflow_conn": ("AIRFLOW_CONN_WAREHOUSE=postgres://airflow:", "@pg.internal:5432/dwh\n"),
        "logstash_hosts": ("    hosts => [\"https://elastic:", "@es.internal:9200\"]\n"),
        "couchdb": ("COUCHDB_URL = 'http://admin:", "@couch.internal:5984'\n"),
        "influx": ("influx -host influxdb://telegraf:", "@influx.internal:8086\n"),
        "git_plus": ("pip install git+https://ci:", "@git.example.no/lib/tools.git\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def i_look(r, doc, m):
    q = r.randint
    kind = r.choice([
        "hl7_msh_ts", "hl7_version", "edi_isa_ctrl", "edi_gs_version", "swift_ref", "swift_bic", "swift_32a",
        "rf_creditor_ref", "ical_dtstamp", "cef_device_version", "suricata_flow_id", "vpc_account", "fc_wwn",
        "android_fingerprint", "oracle_version", "erlang_vsn", "cabal_version", "ndc_code", "icd10", "cve",
        "attack_id", "git_scp_remote", "fi_outline", "da_outline", "hr_outline", "fi_ytunnus", "dk_cvr",
        "mpesa_code", "zeek_uid", "logcat_pids", "dart_pubspec", "r_version", "reg_dword", "dhcp_mac",
        "doi", "haskell_sig", "iis_status"])
    lead, v, tail = {
        "hl7_msh_ts": ("MSH|^~\\&|LAB|HOSP|EHR|HOSP|", "%d%02d%02d%02d%02d%02d" % (q(2020, 2026), q(1, 12), q(1, 28), q(0, 23), q(0, 59), q(0, 59)), "||ORU^R01|MSG00001|P|2.5.1\r"),
        "hl7_version": ("MSH|^~\\&|LAB|HOSP|EHR|HOSP|||ADT^A01|MSG00002|P|", "2.%d.%d" % (q(3, 8), q(0, 1)), "\r"),
        "edi_isa_ctrl": ("ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *261205*0914*^*00501*", _d(r, 9), "*0*P*:~\n"),
        "edi_gs_version": ("GS*HC*SENDER*RECEIVER*20261205*0914*1*X*", "005010X%03dA1" % q(100, 299), "~\n"),
        "swift_ref": (":20:", "REF" + _d(r, 13), "\n"),
        "swift_bic": (":57A:", _s(r, UP, 4) + r.choice(["FI", "NO", "DK", "EE", "LT"]) + _s(r, UP + D, 2) + r.choice(["", "XXX"]), "\n"),
        "swift_32a": (":32A:", "%02d%02d%02dEUR%d,%02d" % (q(20, 26), q(1, 12), q(1, 28), q(100, 999999), q(0, 99)), "\n"),
        "rf_creditor_ref": ("Viite: ", _rf(r), "\n"),
        "ical_dtstamp": ("DTSTAMP:", "%d%02d%02dT%02d%02d%02dZ" % (q(2020, 2026), q(1, 12), q(1, 28), q(0, 23), q(0, 59), q(0, 59)), "\r\n"),
        "cef_device_version": ("CEF:0|Acme|Firewall|", "%d.%d.%d.%d" % (q(1, 9), q(0, 20), q(0, 9), q(0, 999)), "|100|Connection blocked|5|act=deny\n"),
        "suricata_flow_id": ("{\"timestamp\":\"2026-12-05T09:14:02.118+0000\",\"flow_id\":", str(q(10 ** 15, 10 ** 16 - 1)), ",\"event_type\":\"flow\"}\n"),
        "vpc_account": ("2 ", _d(r, 12), " eni-0a1b2c3d4e5f - - - - - - - 1733390040 1733390100 - NODATA\n"),
        "fc_wwn": ("zone member pwwn ", ":".join(_s(r, HEX, 2) for _ in range(8)), "\n"),
        "android_fingerprint": ("ro.build.fingerprint=", "google/oriole/oriole:14/UQ1A.%d.%03d/%d:user/release-keys" % (q(230000, 240999), q(1, 99), q(10 ** 7, 10 ** 8)), "\n"),
        "oracle_version": ("Oracle Database 19c Enterprise Edition Release ", "%d.%d.%d.%d.%d" % (q(11, 23), q(0, 9), q(0, 9), q(0, 9), q(0, 9)), " - Production\n"),
        "erlang_vsn": ("  {vsn, \"", "%d.%d.%d.%d" % (q(1, 9), q(0, 20), q(0, 9), q(0, 99)), "\"},\n"),
        "cabal_version": ("version:             ", "%d.%d.%d.%d" % (q(0, 3), q(0, 20), q(0, 9), q(0, 9)), "\n"),
        "ndc_code": ("NDC ", "%s-%s-%s" % (_d(r, 5), _d(r, 3), _d(r, 2)), "\n"),
        "icd10": ("DG1|1||", "%s%d.%d" % (r.choice(UP), q(10, 99), q(0, 999)), "^Diagnosis^I10\r"),
        "cve": ("Fixes ", "CVE-%d-%d" % (q(2015, 2026), q(1000, 59999)), ".\n"),
        "attack_id": ("technique: ", "T%d.%03d" % (q(1001, 1660), q(1, 20)), "\n"),
        "git_scp_remote": ("git remote add origin ", "git@github.com:%s/%s.git" % (r.choice(["acme", "kari", "ops"]), r.choice(["app", "infra", "tools"])), "\n"),
        "fi_outline": ("Katso kohta ", "%d.%d.%d.%d" % (q(1, 12), q(1, 9), q(1, 9), q(1, 9)), ".\n"),
        "da_outline": ("Jf. afsnit ", "%d.%d.%d.%d" % (q(1, 12), q(1, 9), q(1, 9), q(1, 9)), " i vejledningen.\n"),
        "hr_outline": ("Prema članku ", "%d.%d.%d.%d" % (q(1, 12), q(1, 9), q(1, 9), q(1, 9)), " pravilnika.\n"),
        "fi_ytunnus": ("Y-tunnus: ", "%s-%s" % (_d(r, 7), _d(r, 1)), "\n"),
        "dk_cvr": ("CVR-nr. ", "%s %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "mpesa_code": ("Confirmed. ", _s(r, UP + D, 10), " Ksh1,500.00 sent.\n"),
        "zeek_uid": ("uid\t", "C" + _tok(r, 17), "\n"),
        "logcat_pids": ("12-05 09:14:02.311  ", "%d  %d" % (q(1000, 32000), q(1000, 32000)), " I ActivityManager: Start proc\n"),
        "dart_pubspec": ("version: ", "%d.%d.%d+%d" % (q(0, 9), q(0, 30), q(0, 9), q(1, 999)), "\n"),
        "r_version": ("R version ", "%d.%d.%d" % (q(3, 4), q(0, 4), q(0, 3)), " (2023-10-31)\n"),
        "reg_dword": ("\"MaxRetries\"=dword:", "%08x" % q(0, 255), "\n"),
        "dhcp_mac": ("  hardware ethernet ", ":".join(_s(r, HEX, 2) for _ in range(6)), ";\n"),
        "doi": ("doi:", "10.%d/%s.%d.%d" % (q(1000, 9999), r.choice(["jacs", "nature", "acs"]), q(1, 99), q(100, 9999)), "\n"),
        "haskell_sig": ("", "lookupUser :: UserId -> IO (Maybe User)", "\n"),
        "iis_status": ("2026-12-05 09:14:02 W3SVC1 GET /health - 80 - - curl/8.4.0 ", "%d %d %d %d" % (r.choice([200, 304, 404]), 0, 0, q(1, 999)), "\n"),
    }[kind]
    doc.t(lead)
    doc.look(v, kind)
    doc.t(tail)


def _rf(r):
    """An ISO 11649 creditor reference (`RF` + mod-97 check + reference):
    it passes an IBAN's check number but names no country."""
    ref = _d(r, r.randint(8, 16))
    return m_group4(with_check("RF", ref))


def m_group4(s):
    return " ".join(s[i:i + 4] for i in range(0, len(s), 4))


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["\n", "%% --\n", "-- ...\n", "; ---\n", "(* *)\n", "~\n"]


def heldout6_doc(r, doc, m):
    """One text of the seventh family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
