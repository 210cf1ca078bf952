"""The seventh held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout7`; not run on its own.

An eighth template family, written and committed before any detector
change of the fifth round (the round that closes heldout6's misses),
from real-world formats and not from the detectors' code. The session
that wrote it knew heldout6's miss classes (ODBC `PWD=`, Postman
key/value pairs, launchd plists, `curl -u`, .pgpass, WireGuard
`PrivateKey`, an SSN in an XML element; WWNs, RF creditor references and
Erlang `vsn` read as addresses or IBANs) and the detectors' source; it
was written without reading them for this file, and only its per-class
table is looked at until the round's final measurement.

Surroundings that no other family writes: tcpdump, ping, traceroute,
dig, nmap and `ip addr` output, auditd records, MySQL general log,
PostgreSQL connection log, MongoDB JSON log, RabbitMQ, Sendmail,
Kubernetes audit events, Okta system log, GitHub audit log, GCP and
Azure activity logs, Windows Security event XML; configs of
wpa_supplicant, hostapd, NetworkManager keyfiles, fstab (CIFS,
curlftpfs), rclone, s3cmd, kubeconfig, Maven settings.xml, NuGet.config,
Composer auth.json, Cargo credentials, .yarnrc.yml, gem credentials,
rsyncd.secrets, snmpd, keepalived, MikroTik RouterOS, VyOS, Windows
unattend.xml and Group Policy Preferences, pip.conf, SIP headers, EPC
payment QR payloads, Jupyter notebooks; code in Fortran, COBOL, Zig,
Nim, Crystal, F#, Pascal/Delphi, Solidity, Starlark (Bazel), Jsonnet,
CUE, Dhall, Pkl, KDL, RON, protobuf text format, Nushell and fish;
prose in Slovak, Slovenian, Serbian (Cyrillic), Albanian, Catalan,
Welsh, Afrikaans, Maltese, Armenian, Amharic, Nepali and Azerbaijani;
phone numbers of those countries and of Latin America, Africa and
Oceania in their own groupings; IBANs of countries no family used
(SK, RS, AL, MK, AZ, LU, MT, ME, BA, MD, AD, SM, QA, JO, BH, TN, MU);
new shapes (an IPv4 or IPv6 followed by `.port` as tcpdump writes it,
an unsigned JWT ending in `.`, PEM blocks with CRLF line ends, in Zig
`\\\\` line strings and in notebook source arrays, URL passwords holding
unencoded sub-delimiters, dotted US phone numbers); and look-alikes
(dig SOA serials, ip6.arpa nibbles, certificate fingerprints, LEIs with
a valid mod-97 check, MMSI and ABA routing numbers, NZ IRD numbers,
Solidity constants and pragma versions, Bitcoin addresses, SRI hashes,
CSP nonces, kubeconfig CA data, shell prompts, npm scoped packages,
driver four-part versions, Erlang pids, outline numbers after Slovak and
Catalan words).

Some forms are out of every detector's documented scope and are written
unclaimed (reported apart): blank-separated directives (snmpd
`rocommunity`, keepalived `auth_pass`; removed for CPU in an earlier
round), a kubeconfig's base64-wrapped PEM, and PuTTY key files.

It reuses only the value makers of `detect_corpus.py` (card_number, jwt,
pem, group4) and the small ones of `detect_values.py`. Its texts are
drawn from their own seed (`detect_corpus.py` offsets the split's
seed). It is the project's own, like the others.
"""
import base64
import json
from detect_values import AN, D, HEX, UHEX, UP, _d, _nz, _put, _s, _seq, _ssn, _tok, with_check, family_doc, LOW


def _iban(r):
    country, bban = r.choice([
        ("SK", lambda: _d(r, 20)),
        ("RS", lambda: _d(r, 18)),
        ("AL", lambda: _d(r, 8) + _s(r, UP + D, 16)),
        ("MK", lambda: _d(r, 3) + _s(r, UP + D, 10) + _d(r, 2)),
        ("AZ", lambda: _s(r, UP, 4) + _s(r, UP + D, 20)),
        ("LU", lambda: _d(r, 3) + _s(r, UP + D, 13)),
        ("MT", lambda: _s(r, UP, 4) + _d(r, 5) + _s(r, UP + D, 18)),
        ("ME", lambda: _d(r, 18)),
        ("BA", lambda: _d(r, 16)),
        ("MD", lambda: _s(r, UP + D, 20)),
        ("AD", lambda: _d(r, 8) + _s(r, UP + D, 12)),
        ("SM", lambda: _s(r, UP, 1) + _d(r, 10) + _s(r, UP + D, 12)),
        ("QA", lambda: _s(r, UP, 4) + _s(r, UP + D, 21)),
        ("JO", lambda: _s(r, UP, 4) + _d(r, 4) + _s(r, UP + D, 18)),
        ("BH", lambda: _s(r, UP, 4) + _s(r, UP + D, 14)),
        ("TN", lambda: _d(r, 20)),
        ("MU", lambda: _s(r, UP, 4) + _d(r, 19) + "MUR"),
    ])
    return with_check(country, bban())


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([5, 37, 41, 62, 81, 94, 103, 176, 188, 196, 201, 213]), r.randint(0, 255),
                            r.randint(0, 255), r.randint(1, 254))


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2a02:%s:%s::%s" % (g(), g(), g()),
        lambda: "2600:%s:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g(), g()),
        lambda: "2804:%s::%s:%s" % (g(), g(), g()),
        lambda: "240e:%s:%s:%s::%s" % (g(), g(), g(), g()),
        lambda: "2a0d:%04x:%04x:0000:0000:%04x:%04x:%04x" % tuple(r.randint(0, 0xffff) for _ in range(5)),
        lambda: ("2A03:%s::%s" % (g(), g())).upper(),
    ])()


def _pw(r):
    """A URL password: letters and digits, now and then an unencoded
    sub-delimiter (RFC 3986 allows `!$&'()*+,;=` in userinfo) or a
    percent-encoded reserved character."""
    return _tok(r, r.randint(10, 20)) + r.choice(["", "", "!", "*", "~", "%2F" + _d(r, 2), "%3A"])


# ------------------------------------------------------------------ items

def i_email(r, doc, m):
    e = "%s@%s" % (r.choice(["jan.novak", "maja.kovac", "marko", "arben.hoxha", "jordi.puig", "ops+alerts",
                             "gareth.jones", "pieter.botha", "elena_borg", "aram.petrosyan", "abebe.k",
                             "sita.sharma", "Leyla.Aliyeva"]),
                   r.choice(["priklad.sk", "primer.si", "primer.rs", "shembull.al", "exemple.cat",
                             "enghraifft.cymru", "voorbeeld.co.za", "eżempju.com.mt", "example.am",
                             "example.com.et", "udaharan.com.np", "numune.az", "Mail.Example.LU"]))
    form = r.choice(["maven_user", "kube_user", "okta_actor", "gcloud_member", "solidity_contact", "fortran",
                     "cobol", "nim", "zig", "starlark", "jsonnet", "dhall", "mysql_general", "sendmail", "sip_from",
                     "sk_prose", "sl_prose", "sr_prose", "ca_prose", "cy_prose", "af_prose", "hy_prose", "am_prose",
                     "ne_prose"])
    lead, tail = {
        "maven_user": ("<server>\n  <id>corp-releases</id>\n  <username>", "</username>\n"),
        "kube_user": ("contexts:\n- context:\n    cluster: prod\n    user: ", "\n  name: prod\n"),
        "okta_actor": ("{\"eventType\":\"user.session.start\",\"actor\":{\"alternateId\":\"", "\",\"type\":\"User\"}}\n"),
        "gcloud_member": ("gcloud projects add-iam-policy-binding acme-prod --member=user:", " --role=roles/viewer\n"),
        "solidity_contact": ("/// @custom:security-contact ", "\ncontract Vault {\n"),
        "fortran": ("! Maintainer: J. Novak <", ">\nprogram solver\n"),
        "cobol": ("       01 WS-CONTACT  PIC X(40) VALUE '", "'.\n"),
        "nim": ("const supportMail = \"", "\"\n"),
        "zig": ("const contact: []const u8 = \"", "\";\n"),
        "starlark": ("    maintainers = [\"", "\"],\n"),
        "jsonnet": ("  owner: '", "',\n"),
        "dhall": ("  , email = \"", "\"\n"),
        "mysql_general": ("2026-12-05T09:14:02.118211Z\t   42 Query\tSELECT id FROM users WHERE email='", "'\n"),
        "sendmail": ("Dec  5 09:14:02 mx sm-mta[1123]: 4B59E2xq001123: from=<", ">, size=2231, class=0, nrcpts=1\n"),
        "sip_from": ("From: \"Jan Novak\" <sip:", ">;tag=1928301774\r\n"),
        "sk_prose": ("Napíšte nám na ", ", odpovieme do dvoch dní.\n"),
        "sl_prose": ("Pišite na naslov ", " do petka.\n"),
        "sr_prose": ("Пишите нам на ", ".\n"),
        "ca_prose": ("Escriu-nos a ", " si tens dubtes.\n"),
        "cy_prose": ("Anfonwch e-bost at ", " os gwelwch yn dda.\n"),
        "af_prose": ("Stuur 'n e-pos na ", ".\n"),
        "hy_prose": ("Էլ. փոստ՝ ", "\n"),
        "am_prose": ("ኢሜይል፦ ", "\n"),
        "ne_prose": ("इमेल ठेगाना: ", " मा पठाउनुहोस्।\n"),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    form = r.choice(["sk_mobile", "si_mobile", "rs_mobile", "al_mobile", "am_mobile", "az_mobile", "np_mobile",
                     "lk_mobile", "et_mobile", "ng_mobile", "za_mobile", "lu_mobile", "mt_mobile", "cl_mobile",
                     "co_mobile", "ar_mobile", "pe_mobile", "nz_mobile", "eg_mobile", "ma_mobile",
                     "us_sip_from", "us_tel_href", "us_fortran", "us_kdl", "us_dotted_prose", "us_sms_log"])
    a, x, s = "%s%s" % (_nz(r), _d(r, 2)), "%s%s" % (_nz(r), _d(r, 2)), _d(r, 4)
    lead, p, tail = {
        "sk_mobile": ("Tel. č.: ", "+421 9%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3)), "\n"),
        "si_mobile": ("Telefon: ", "+386 41 %s %s" % (_d(r, 3), _d(r, 3)), "\n"),
        "rs_mobile": ("Мобилни: ", "+381 6%s %s" % (_d(r, 1), _d(r, 7)), "\n"),
        "al_mobile": ("Celular: ", "+355 6%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)), "\n"),
        "am_mobile": ("Հեռ.՝ ", "+374 9%s %s" % (_d(r, 1), _d(r, 6)), "\n"),
        "az_mobile": ("Mobil nömrə: ", "+994 5%s %s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "np_mobile": ("फोन: ", "+977 98%s%s" % (_d(r, 2), _d(r, 6)), "\n"),
        "lk_mobile": ("WhatsApp: ", "+94 7%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)), "\n"),
        "et_mobile": ("ስልክ፦ ", "+251 9%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)), "\n"),
        "ng_mobile": ("Mobile: ", "+234 80%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)), "\n"),
        "za_mobile": ("Sel: ", "+27 8%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)), "\n"),
        "lu_mobile": ("Tél. portable : ", "+352 6%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3)), "\n"),
        "mt_mobile": ("Mowbajl: ", "+356 99%s %s" % (_d(r, 2), _d(r, 4)), "\n"),
        "cl_mobile": ("Celular: ", "+56 9 %s %s" % (_d(r, 4), _d(r, 4)), "\n"),
        "co_mobile": ("Cel.: ", "+57 3%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 4)), "\n"),
        "ar_mobile": ("Móvil: ", "+54 9 11 %s-%s" % (_d(r, 4), _d(r, 4)), "\n"),
        "pe_mobile": ("Teléfono: ", "+51 9%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3)), "\n"),
        "nz_mobile": ("Mob: ", "+64 2%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)), "\n"),
        "eg_mobile": ("الهاتف: ", "+20 1%s %s %s" % (_d(r, 1), _d(r, 4), _d(r, 4)), "\n"),
        "ma_mobile": ("Tél : ", "+212 6 %s %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "us_sip_from": ("From: \"Front Desk\" <sip:", "+1%s%s%s" % (a, x, s), "@pbx.example.com>;tag=88a1\r\n"),
        "us_tel_href": ("<a href=\"tel:", "+1-%s-%s-%s" % (a, x, s), "\">Call us</a>\n"),
        "us_fortran": ("character(len=*), parameter :: hotline = '", "(%s) %s-%s" % (a, x, s), "'\n"),
        "us_kdl": ("contact phone=\"", "+1 %s %s %s" % (a, x, s), "\"\n"),
        "us_dotted_prose": ("Call me at ", "%s.%s.%s" % (a, x, s), " after five.\n"),
        "us_sms_log": ("2026-12-05 09:14:02 sms-gw queued to=", "+1%s%s%s" % (a, x, s), " parts=1\n"),
    }[form]
    _put(doc, lead, p, "phone", form, tail)


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["cobol", "fortran", "kdl", "ron", "pkl", "protobuf_text", "mysql_general", "fixed_width",
                     "es_prose", "w2_box", "tin_1099", "xml_attr", "ssn_hash_prose"])
    lead, v, tail = {
        "cobol": ("       05 WS-SSN      PIC X(11) VALUE '", dashed, "'.\n"),
        "fortran": ("emp%ssn = '", dashed, "'\n"),
        "kdl": ("employee name=\"x\" ssn=\"", dashed, "\"\n"),
        "ron": ("Employee(name: \"x\", ssn: \"", dashed, "\"),\n"),
        "pkl": ("ssn = \"", dashed, "\"\n"),
        "protobuf_text": ("employee {\n  ssn: \"", dashed, "\"\n}\n"),
        "mysql_general": ("2026-12-05T09:14:02.118211Z\t   42 Query\tUPDATE staff SET ssn='", dashed, "' WHERE id=7\n"),
        "fixed_width": ("LAST      FIRST     SSN          DOB\nDOE       JANE      ", dashed, "  1980-01-01\n"),
        "es_prose": ("Número de Seguro Social: ", dashed, "\n"),
        "w2_box": ("a  Employee's social security number\n   ", dashed, "\n"),
        "tin_1099": ("RECIPIENT'S TIN ", dashed, "\n"),
        "xml_attr": ("<employee id=\"7\" ssn=\"", dashed, "\" />\n"),
        "ssn_hash_prose": ("SSN# ", dashed, " on file.\n"),
    }[form]
    _put(doc, lead, v, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = m.card_number(r)
    shown = ("%s %s %s" % (c[:4], c[4:10], c[10:])) if kind == "amex" else m.group4(c, r.choice([" ", "-", ""]))
    form = r.choice(["stripe_cli", "cobol", "fortran", "zig", "nim", "kdl", "ron", "protobuf_text", "mysql_general",
                     "jupyter", "fsharp", "pascal", "sk_prose", "sl_prose", "sr_prose", "ca_prose", "cy_prose",
                     "af_prose"])
    lead, v, tail = {
        "stripe_cli": ("stripe payment_methods create --type=card -d \"card[number]=", c, "\" -d \"card[cvc]=314\"\n"),
        "cobol": ("       01 WS-PAN      PIC X(19) VALUE '", c, "'.\n"),
        "fortran": ("pan = '", shown, "'\n"),
        "zig": ("const test_pan = \"", c, "\";\n"),
        "nim": ("let cardNo = \"", shown, "\"\n"),
        "kdl": ("card number=\"", shown, "\" exp=\"12/29\"\n"),
        "ron": ("Card(number: \"", shown, "\", exp: \"12/29\"),\n"),
        "protobuf_text": ("payment {\n  card_number: \"", c, "\"\n}\n"),
        "mysql_general": ("2026-12-05T09:14:02.118211Z\t   42 Query\tINSERT INTO payments (pan) VALUES ('", c, "')\n"),
        "jupyter": ("    \"card = \\\"", shown, "\\\"\\n\",\n"),
        "fsharp": ("let cardNumber = \"", shown, "\"\n"),
        "pascal": ("  CardNo := '", shown, "';\n"),
        "sk_prose": ("Číslo karty: ", shown, "\n"),
        "sl_prose": ("Številka kartice je ", shown, ".\n"),
        "sr_prose": ("Број картице: ", shown, "\n"),
        "ca_prose": ("El número de targeta és ", shown, ", caduca el 12/29.\n"),
        "cy_prose": ("Rhif cerdyn: ", shown, "\n"),
        "af_prose": ("My kaartnommer is ", shown, ".\n"),
    }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = m.group4(i)
    form = r.choice(["epc_qr", "stripe_sepa", "cobol", "kdl", "nim", "mysql_general", "protobuf_text", "pascal",
                     "sk_prose", "sr_prose", "sq_prose", "mt_prose", "ca_prose", "az_prose", "ar_prose",
                     "lb_prose"])
    lead, v, tail = {
        # EPC069-12 (SEPA QR): the IBAN is the sixth line, after the name.
        "epc_qr": ("BCD\n002\n1\nSCT\n\nJan Novak\n", i, "\nEUR12.50\n\n\nFaktura 2026/118\n"),
        "stripe_sepa": ("stripe payment_methods create --type=sepa_debit -d \"sepa_debit[iban]=", i, "\"\n"),
        "cobol": ("       01 WS-IBAN     PIC X(34) VALUE '", i, "'.\n"),
        "kdl": ("payee name=\"Jan Novak\" iban=\"", i, "\"\n"),
        "nim": ("const payeeIban = \"", i, "\"\n"),
        "mysql_general": ("2026-12-05T09:14:02.118211Z\t   42 Query\tUPDATE payees SET iban='", i, "' WHERE id=3\n"),
        "protobuf_text": ("payee {\n  iban: \"", i, "\"\n}\n"),
        "pascal": ("  Payee.IBAN := '", i, "';\n"),
        "sk_prose": ("Číslo účtu (IBAN): ", spaced, "\n"),
        "sr_prose": ("Уплатите на рачун ", spaced, " до краја месеца.\n"),
        "sq_prose": ("Numri i llogarisë: ", spaced, "\n"),
        "mt_prose": ("In-numru tal-kont tiegħi huwa ", i, ".\n"),
        "ca_prose": ("Fes la transferència al compte ", spaced, ", si us plau.\n"),
        "az_prose": ("Hesab nömrəsi: ", spaced, "\n"),
        "ar_prose": ("رقم الحساب المصرفي الدولي: ", i, "\n"),
        "lb_prose": ("Iwwerweisung op ", spaced, " w.e.g.\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4(r)
    form = r.choice(["tcpdump", "ping", "traceroute", "dig_a", "nmap", "ip_addr", "auditd", "mysql_connect",
                     "postgres_conn", "mongod_json", "rabbitmq", "k8s_audit", "okta_client", "github_audit",
                     "gcp_remoteip", "azure_caller", "win_event_xml", "mikrotik", "vyos", "keepalived_vip",
                     "fstab_cifs", "sk_prose", "sl_prose", "sr_prose", "ca_prose", "af_prose"])
    parts = {
        # tcpdump writes the port after the address with a dot.
        "tcpdump": ["09:14:02.118211 IP ", (ip, "ipv4"), ".52144 > ", (ip2, "ipv4"), ".443: Flags [S], seq 1190227,"
                    " win 64240, length 0\n"],
        "ping": ["64 bytes from ", (ip, "ipv4"), ": icmp_seq=1 ttl=57 time=11.4 ms\n"],
        "traceroute": [" 4  core1.example.net (", (ip, "ipv4"), ")  11.204 ms  10.981 ms  11.377 ms\n"],
        "dig_a": ["example.sk.\t\t300\tIN\tA\t", (ip, "ipv4"), "\n"],
        "nmap": ["Nmap scan report for ", (ip, "ipv4"), "\nHost is up (0.011s latency).\n"],
        # The broadcast address is an address (only netmasks are not).
        "ip_addr": ["    inet ", (ip, "ipv4"), "/24 brd ", ("192.0.2.255", "ipv4"), " scope global dynamic eth0\n"],
        "auditd": ["type=USER_LOGIN msg=audit(1733390042.118:812): pid=2231 uid=0 auid=1000 ses=3 msg='op=login "
                   "acct=\"ops\" exe=\"/usr/sbin/sshd\" hostname=? addr=", (ip, "ipv4"), " terminal=ssh res=success'\n"],
        "mysql_connect": ["2026-12-05T09:14:02.118211Z\t   42 Connect\tapp@", (ip, "ipv4"), " on app using TCP/IP\n"],
        "postgres_conn": ["2026-12-05 09:14:02.118 UTC [2231] LOG:  connection received: host=", (ip, "ipv4"),
                          " port=52144\n"],
        "mongod_json": ["{\"t\":{\"$date\":\"2026-12-05T09:14:02.118+00:00\"},\"s\":\"I\",\"c\":\"NETWORK\","
                        "\"msg\":\"Connection accepted\",\"attr\":{\"remote\":\"", (ip, "ipv4"), ":52144\"}}\n"],
        "rabbitmq": ["2026-12-05 09:14:02.118 [info] <0.812.0> accepting AMQP connection <0.812.0> (", (ip, "ipv4"),
                     ":52144 -> ", (ip2, "ipv4"), ":5672)\n"],
        "k8s_audit": ["{\"kind\":\"Event\",\"verb\":\"get\",\"sourceIPs\":[\"", (ip, "ipv4"), "\"],\"userAgent\":\"kubectl/v1.31.2\"}\n"],
        "okta_client": ["\"client\":{\"ipAddress\":\"", (ip, "ipv4"), "\",\"device\":\"Computer\"},\n"],
        "github_audit": ["{\"action\":\"repo.create\",\"actor\":\"octocat\",\"actor_ip\":\"", (ip, "ipv4"), "\"}\n"],
        "gcp_remoteip": ["    \"httpRequest\": {\"requestMethod\": \"GET\", \"remoteIp\": \"", (ip, "ipv4"), "\"},\n"],
        "azure_caller": ["  \"callerIpAddress\": \"", (ip, "ipv4"), "\",\n"],
        "win_event_xml": ["<Data Name=\"IpAddress\">", (ip, "ipv4"), "</Data>\n<Data Name=\"IpPort\">52144</Data>\n"],
        "mikrotik": ["/ip firewall address-list add list=blocked address=", (ip, "ipv4"), " comment=\"scanner\"\n"],
        "vyos": ["set interfaces ethernet eth0 address '", (ip, "ipv4"), "/24'\n"],
        "keepalived_vip": ["    virtual_ipaddress {\n        ", (ip, "ipv4"), "\n    }\n"],
        "fstab_cifs": ["//", (ip, "ipv4"), "/share  /mnt/share  cifs  credentials=/root/.smbcred,uid=1000  0  0\n"],
        "sk_prose": ["Server s IP adresou ", (ip, "ipv4"), " neodpovedá.\n"],
        "sl_prose": ["Naslov IP strežnika je ", (ip, "ipv4"), ".\n"],
        "sr_prose": ["ИП адреса сервера је ", (ip, "ipv4"), ", проверите заштитни зид.\n"],
        "ca_prose": ["L'adreça IP del servidor és ", (ip, "ipv4"), ".\n"],
        "af_prose": ["Die bediener se IP-adres is ", (ip, "ipv4"), " en dit reageer nie.\n"],
    }[form]
    _seq(doc, form, parts)


def i_ipv6(r, doc, m):
    ip, ip2 = _v6(r), _v6(r)
    form = r.choice(["tcpdump6", "ping6", "dig_aaaa", "ip6_addr", "mikrotik6", "nmap6", "auditd6", "rabbitmq6",
                     "k8s_audit6", "github_audit6", "win_event_xml6", "postgres_conn6", "sk_prose", "ca_prose",
                     "sq_prose"])
    parts = {
        "tcpdump6": ["09:14:02.118211 IP6 ", (ip, "ipv6"), ".52144 > ", (ip2, "ipv6"), ".443: Flags [S], seq 1, length 0\n"],
        "ping6": ["64 bytes from ", (ip, "ipv6"), ": icmp_seq=1 ttl=57 time=11.4 ms\n"],
        "dig_aaaa": ["example.sk.\t\t300\tIN\tAAAA\t", (ip, "ipv6"), "\n"],
        "ip6_addr": ["    inet6 ", (ip, "ipv6"), "/64 scope global dynamic mngtmpaddr\n"],
        "mikrotik6": ["/ipv6 address add address=", (ip, "ipv6"), "/64 interface=ether1 advertise=no\n"],
        "nmap6": ["Nmap scan report for www.example.sk (", (ip, "ipv6"), ")\n"],
        "auditd6": ["type=USER_AUTH msg=audit(1733390042.118:813): pid=2231 uid=0 msg='op=PAM:authentication acct=\"ops\" "
                    "addr=", (ip, "ipv6"), " terminal=ssh res=failed'\n"],
        "rabbitmq6": ["accepting AMQP connection <0.813.0> ([", (ip, "ipv6"), "]:52144 -> [", (ip2, "ipv6"), "]:5672)\n"],
        "k8s_audit6": ["{\"kind\":\"Event\",\"sourceIPs\":[\"", (ip, "ipv6"), "\"]}\n"],
        "github_audit6": ["{\"action\":\"org.add_member\",\"actor_ip\":\"", (ip, "ipv6"), "\"}\n"],
        "win_event_xml6": ["<Data Name=\"IpAddress\">", (ip, "ipv6"), "</Data>\n"],
        "postgres_conn6": ["LOG:  connection received: host=", (ip, "ipv6"), " port=52144\n"],
        "sk_prose": ["Klient sa pripojil z adresy ", (ip, "ipv6"), " včera.\n"],
        "ca_prose": ["L'adreça IPv6 és ", (ip, "ipv6"), ".\n"],
        "sq_prose": ["Adresa IPv6 e klientit është ", (ip, "ipv6"), "\n"],
    }[form]
    _seq(doc, form, parts)


def i_api_key(r, doc, m):
    form = r.choice([
        "wpa_psk", "hostapd", "nm_keyfile", "fstab_cifs_opts", "rclone", "s3cfg", "kube_token", "maven_password",
        "nuget_cleartext", "composer_auth", "cargo_credentials", "yarnrc", "gem_credentials", "rsyncd_secrets",
        "snmpd_community", "keepalived_pass", "mikrotik_user", "vyos_password", "unattend_value", "gpp_cpassword",
        "jupyter_env", "starlark_env", "cue", "nushell", "fish_set", "fortran", "zig", "crystal", "databricks",
        "square", "atlassian", "doppler", "google_oauth"])
    t = _tok(r, r.randint(16, 32))
    claimed = form not in ("snmpd_community", "keepalived_pass")
    lead, v, tail = {
        "wpa_psk": ("network={\n    ssid=\"HomeNet\"\n    psk=\"", t, "\"\n}\n"),
        "hostapd": ("interface=wlan0\nssid=Office\nwpa=2\nwpa_passphrase=", t, "\n"),
        "nm_keyfile": ("[wifi-security]\nkey-mgmt=wpa-psk\npsk=", t, "\n"),
        "fstab_cifs_opts": ("//nas.local/share  /mnt/nas  cifs  username=svc,password=", t, ",uid=1000  0  0\n"),
        "rclone": ("[dav]\ntype = webdav\nurl = https://dav.example.sk\nuser = sync\npass = ", t, "\n"),
        "s3cfg": ("[default]\naccess_key = AKIA" + _s(r, UP + D, 16) + "\nsecret_key = ", _tok(r, 40, AN + "/+"), "\n"),
        "kube_token": ("users:\n- name: ci\n  user:\n    token: ", t, "\n"),
        "maven_password": ("<server>\n  <id>corp</id>\n  <username>ci</username>\n  <password>", t, "</password>\n</server>\n"),
        "nuget_cleartext": ("<packageSourceCredentials>\n  <corp>\n    <add key=\"Username\" value=\"ci\" />\n"
                            "    <add key=\"ClearTextPassword\" value=\"", t, "\" />\n"),
        "composer_auth": ("{\"http-basic\": {\"repo.example.com\": {\"username\": \"ci\", \"password\": \"", t, "\"}}}\n"),
        "cargo_credentials": ("[registries.corp]\ntoken = \"", t, "\"\n"),
        "yarnrc": ("npmRegistryServer: \"https://npm.example.com\"\nnpmAuthToken: \"", t, "\"\n"),
        "gem_credentials": ("---\n:rubygems_api_key: ", "rubygems_" + _s(r, HEX, 48), "\n"),
        "rsyncd_secrets": ("# /etc/rsyncd.secrets\nbackup:", t, "\n"),
        "snmpd_community": ("rocommunity ", t, " default\n"),
        "keepalived_pass": ("    authentication {\n        auth_type PASS\n        auth_pass ", t, "\n    }\n"),
        "mikrotik_user": ("/user add name=ops group=full password=", t, "\n"),
        "vyos_password": ("set system login user ops authentication plaintext-password '", t, "'\n"),
        "unattend_value": ("<AdministratorPassword>\n  <Value>", t, "</Value>\n  <PlainText>true</PlainText>\n"
                           "</AdministratorPassword>\n"),
        "gpp_cpassword": ("<Properties action=\"U\" userName=\"Administrator\" cpassword=\"",
                          base64.b64encode(bytes(r.randint(0, 255) for _ in range(32))).decode(), "\" />\n"),
        "jupyter_env": ("    \"os.environ[\\\"SERVICE_TOKEN\\\"] = \\\"", t, "\\\"\\n\",\n"),
        "starlark_env": ("    env = {\"DEPLOY_TOKEN\": \"", t, "\"},\n"),
        "cue": ("apiToken: \"", t, "\"\n"),
        "nushell": ("$env.API_TOKEN = \"", t, "\"\n"),
        "fish_set": ("set -gx API_TOKEN ", t, "\n"),
        "fortran": ("character(len=*), parameter :: api_key = '", t, "'\n"),
        "zig": ("const api_secret = \"", t, "\";\n"),
        "crystal": ("ACCESS_TOKEN = \"", t, "\"\n"),
        "databricks": ("export DATABRICKS_HOST=https://adb-1.azuredatabricks.net\ndatabricks configure --token ",
                       "dapi" + _s(r, HEX, 32), "\n"),
        "square": ("square.access_token=", "EAAA" + _tok(r, 60, AN + "-_"), "\n"),
        "atlassian": ("jira_token: ", "ATATT3xFfGF0" + _tok(r, 180, AN + "-_") + "=" + _s(r, UHEX, 8), "\n"),
        "doppler": ("DOPPLER_TOKEN=", "dp.st.prd." + _tok(r, 43), "\n"),
        "google_oauth": ("curl -H \"X-Goog-Api-Client: gl\" -d access_token=", "ya29." + _tok(r, 120, AN + "-_"), " https://www.googleapis.com/oauth2/v3/tokeninfo\n"),
    }[form]
    if form == "s3cfg":
        # The access key id before the secret is an item too: an AWS key
        # id is one of api_key's shapes (fixed in the sixth round; the
        # draws are unchanged).
        head, key_id = lead[:-len("\nsecret_key = ")].split("= ")
        doc.t(head + "= ")
        doc.item(key_id, "api_key", "t_s3cfg_key_id")
        lead = "\nsecret_key = "
    _put(doc, lead, v, "api_key", form, tail, claimed)


def _unsigned_jwt(r):
    enc = lambda o: base64.urlsafe_b64encode(json.dumps(o).encode()).decode().rstrip("=")
    return "%s.%s." % (enc({"alg": "none", "typ": "JWT"}), enc({"sub": _d(r, 8), "iat": r.randint(1600000000, 1800000000)}))


def i_jwt(r, doc, m):
    form = r.choice(["kube_token", "logout_hint", "wss_query", "set_cookie", "jupyter", "fortran", "nushell_header",
                     "sk_prose", "unsigned_query", "unsigned_header"])
    lead, tail = {
        "kube_token": ("users:\n- name: sa-deployer\n  user:\n    token: ", "\n"),
        "logout_hint": ("GET /oauth2/v1/logout?id_token_hint=", "&post_logout_redirect_uri=https%3A%2F%2Fapp.example.sk HTTP/1.1\n"),
        "wss_query": ("const ws = new WebSocket(\"wss://rt.example.com/socket?access_token=", "\");\n"),
        "set_cookie": ("Set-Cookie: __Host-session=", "; Path=/; Secure; HttpOnly; SameSite=Lax\n"),
        "jupyter": ("    \"token = '", "'\\n\",\n"),
        "fortran": ("character(len=*), parameter :: bearer = '", "'\n"),
        "nushell_header": ("http get -H [Authorization $\"Bearer ", "\"] https://api.example.sk/me\n"),
        "sk_prose": ("Tu je môj prístupový token: ", " (platí hodinu).\n"),
        "unsigned_query": ("GET /callback?id_token=", " HTTP/1.1\n"),
        "unsigned_header": ("Authorization: Bearer ", "\n"),
    }[form]
    v = _unsigned_jwt(r) if form.startswith("unsigned") else m.jwt(r)
    _put(doc, lead, v, "jwt", form, tail)


def i_private_key(r, doc, m):
    k, kind = m.pem(r)
    form = r.choice(["crlf", "zig_lines", "jupyter_lines", "kdl_raw", "ron_raw", "starlark_triple", "sk_prose",
                     "fsharp_verbatim", "kube_key_data", "putty"])
    lines = k.split("\n")
    claimed = True
    if form == "crlf":
        lead, v, tail = "-- key.pem (CRLF)\r\n", "\r\n".join(lines), "\r\n"
    elif form == "zig_lines":
        # A Zig multiline string: each line after `\\`; the item spans from
        # BEGIN to the END line's dashes.
        lead, v, tail = "const key =\n    \\\\", "\n    \\\\".join(lines), "\n;\n"
    elif form == "jupyter_lines":
        lead, v, tail = "   \"source\": [\n    \"", "\\n\",\n    \"".join(lines), "\\n\"\n   ]\n"
    elif form == "kdl_raw":
        lead, v, tail = "tls key=r#\"", k, "\"#\n"
    elif form == "ron_raw":
        lead, v, tail = "(key: r#\"", k, "\"#)\n"
    elif form == "starlark_triple":
        lead, v, tail = "SIGNING_KEY = \"\"\"", k, "\"\"\"\n"
    elif form == "sk_prose":
        lead, v, tail = "Súkromný kľúč servera:\n", k, "\nProsím, nezdieľajte ho.\n"
    elif form == "fsharp_verbatim":
        lead, v, tail = "let key = @\"", k, "\"\n"
    elif form == "kube_key_data":
        # base64 of a whole PEM block: no detector's documented shape.
        claimed = False
        lead, v, tail = "    client-key-data: ", base64.b64encode((k + "\n").encode()).decode(), "\n"
    else:
        # A PuTTY key file: not PEM, no detector's documented shape.
        claimed = False
        body = "\n".join(_s(r, AN + "+/", 64) for _ in range(r.randint(1, 4)))
        lead = "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ops\nPublic-Lines: 2\n%s\n%s\nPrivate-Lines: 1\n" % (
            _s(r, AN + "+/", 64), _s(r, AN + "+/", 20))
        v, tail = body, "\nPrivate-MAC: %s\n" % _s(r, HEX, 64)
        kind = "putty"
    _put(doc, lead, v, "private_key", "%s_%s" % (form, kind), tail, claimed)


def i_url(r, doc, m):
    pw = _pw(r)
    form = r.choice(["pip_conf", "smb", "nats", "clickhouse", "snowflake", "mssql_pyodbc", "neo4j", "curlftpfs",
                     "vnc", "rtmp", "sk_prose", "nushell", "fsharp"])
    lead, tail = {
        "pip_conf": ("[global]\nindex-url = https://ci:", "@pypi.example.com/simple\n"),
        "smb": ("gio mount smb://svc:", "@nas.local/share\n"),
        "nats": ("nats sub -s nats://ops:", "@nats.internal:4222 'orders.>'\n"),
        "clickhouse": ("CLICKHOUSE_DSN=clickhouse://default:", "@ch.internal:9000/logs\n"),
        "snowflake": ("engine = create_engine('snowflake://etl:", "@acme-xy12345/db/public?warehouse=wh')\n"),
        "mssql_pyodbc": ("SQLALCHEMY_URL=mssql+pyodbc://sa:", "@db.internal:1433/app?driver=ODBC+Driver+18\n"),
        "neo4j": ("NEO4J_URI=neo4j+s://neo4j:", "@abcd1234.databases.neo4j.io\n"),
        "curlftpfs": ("curlftpfs#ftp://backup:", "@ftp.example.sk/ /mnt/ftp fuse rw,allow_other 0 0\n"),
        "vnc": ("open vnc://ops:", "@kiosk-07.local:5900\n"),
        "rtmp": ("ffmpeg -re -i in.mp4 -f flv rtmp://stream:", "@live.example.com/app/main\n"),
        "sk_prose": ("Pripojte sa cez https://jan:", "@dav.example.sk/ a nahrajte súbory.\n"),
        "nushell": ("http get https://ci:", "@artifacts.example.sk/latest.json\n"),
        "fsharp": ("let conn = \"amqps://worker:", "@mq.example.sk:5671/prod\"\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def _lei(r):
    """A Legal Entity Identifier: 18 characters and an ISO 7064 mod 97-10
    check (the IBAN's), starting with four digits."""
    base = _d(r, 4) + "00" + _s(r, UP + D, 12)
    num = int("".join(str(int(c, 36)) for c in base + "00"))
    return "%s%02d" % (base, 98 - num % 97)


def i_look(r, doc, m):
    q = r.randint
    kind = r.choice([
        "dig_soa_serial", "ip6_arpa", "cert_fingerprint", "lei", "mmsi", "aba_routing", "nz_ird", "solidity_uint",
        "solidity_pragma", "btc_address", "sri_hash", "csp_nonce", "kube_ca_data", "shell_prompt", "npm_scoped",
        "driver_version", "erlang_pid", "sk_outline", "ca_outline", "auditd_serial", "tcpdump_seq", "traceroute_ms",
        "cobol_seq", "fortran_real", "rabbit_pid", "zig_version", "cpp_scope", "mikrotik_version", "k8s_v", "dmesg_ts",
        "sk_rodne", "jupyter_count", "vyos_image", "mysql_thread", "win_record_id", "pascal_guid"])
    lead, v, tail = {
        "dig_soa_serial": ("example.sk.\t3600\tIN\tSOA\tns1.example.sk. hostmaster.example.sk. ", "%d%02d%02d%02d" % (q(2020, 2026), q(1, 12), q(1, 28), q(0, 99)), " 7200 3600 1209600 3600\n"),
        "ip6_arpa": ("$ORIGIN ", ".".join(_s(r, HEX, 1) for _ in range(16)) + ".ip6.arpa.", "\n"),
        "cert_fingerprint": ("SHA1 Fingerprint=", ":".join(_s(r, UHEX, 2) for _ in range(20)), "\n"),
        "lei": ("LEI: ", _lei(r), "\n"),
        "mmsi": ("MMSI: ", "2%s" % _d(r, 8), "  IMO 9%s\n" % _d(r, 6)),
        "aba_routing": ("Routing (ABA): ", "0%s" % _d(r, 8), "\n"),
        "nz_ird": ("IRD number ", "%s-%s-%s" % (_d(r, 3), _d(r, 3), _d(r, 3)), "\n"),
        "solidity_uint": ("    uint256 public constant MAX_SUPPLY = ", str(q(10 ** 20, 10 ** 25)), ";\n"),
        "solidity_pragma": ("pragma solidity ", "^0.%d.%d" % (q(4, 8), q(0, 28)), ";\n"),
        "btc_address": ("Donations: ", "bc1q" + _s(r, "023456789acdefghjklmnpqrstuvwxyz", 38), "\n"),
        "sri_hash": ("<script src=\"/app.js\" integrity=\"", "sha384-" + _tok(r, 64, AN + "+/"), "\" crossorigin=\"anonymous\"></script>\n"),
        "csp_nonce": ("Content-Security-Policy: script-src 'self' '", "nonce-" + _tok(r, 22, AN + "+/") + "==", "'\n"),
        "kube_ca_data": ("    certificate-authority-data: ", "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t" + _tok(r, 80, AN + "+/"), "\n"),
        "shell_prompt": ("", "ops@web-%02d" % q(1, 40), ":~$ systemctl status nginx\n"),
        "npm_scoped": ("npm i ", "@%s/%s@%d.%d.%d" % (r.choice(["angular", "babel", "types"]), r.choice(["core", "node", "cli"]), q(1, 20), q(0, 20), q(0, 9)), "\n"),
        "driver_version": ("Driver Version: ", "%d.0.15.%d" % (q(27, 32), q(1000, 9999)), "\n"),
        "erlang_pid": ("** Process ", "<0.%d.%d>" % (q(100, 9999), q(0, 9)), " exited with reason: normal\n"),
        "sk_outline": ("Pozri odsek ", "%d.%d.%d.%d" % (q(1, 12), q(1, 9), q(1, 9), q(1, 9)), " zmluvy.\n"),
        "ca_outline": ("Vegeu l'apartat ", "%d.%d.%d.%d" % (q(1, 12), q(1, 9), q(1, 9), q(1, 9)), " del reglament.\n"),
        "auditd_serial": ("type=SYSCALL msg=audit(", "%d.%03d:%d" % (q(1700000000, 1800000000), q(0, 999), q(1, 99999)), "): arch=c000003e syscall=59 success=yes\n"),
        "tcpdump_seq": ("Flags [P.], seq ", "%d:%d" % (q(10 ** 8, 10 ** 9), q(10 ** 9, 4 * 10 ** 9)), ", ack 1, win 502, length 517\n"),
        "traceroute_ms": (" 7  * ", "%d.%03d ms  %d.%03d ms" % (q(1, 99), q(0, 999), q(1, 99), q(0, 999)), "\n"),
        "cobol_seq": ("", "%06d" % (q(1, 999) * 100), "     PERFORM 2000-PROCESS-RECORD\n"),
        "fortran_real": ("real(8), parameter :: c = ", "%d.%dd%d" % (q(1, 9), q(100000, 999999), q(1, 9)), "\n"),
        "rabbit_pid": ("closing AMQP connection ", "<0.%d.0>" % q(100, 9999), " (client closed)\n"),
        "zig_version": ("zig version ", "0.%d.%d" % (q(9, 14), q(0, 3)), "\n"),
        "cpp_scope": ("", "std::chrono::steady_clock::time_point", " start;\n"),
        "mikrotik_version": ("/system package update print\n  installed-version: ", "%d.%d.%d" % (q(6, 7), q(10, 49), q(1, 9)), "\n"),
        "k8s_v": ("Server Version: ", "v1.%d.%d-eks-%s" % (q(24, 31), q(0, 12), _s(r, HEX, 7)), "\n"),
        "dmesg_ts": ("[", "%5d.%06d" % (q(1, 99999), q(0, 999999)), "] usb 1-1: new high-speed USB device number 2\n"),
        "sk_rodne": ("Rodné číslo: ", "%02d%02d%02d/%04d" % (q(40, 99), q(1, 12), q(1, 28), q(0, 9999)), "\n"),
        "jupyter_count": ("   \"execution_count\": ", str(q(1, 400)), ",\n"),
        "vyos_image": ("Version:          VyOS ", "1.%d.%d" % (q(2, 5), q(0, 9)), "\n"),
        "mysql_thread": ("2026-12-05T09:14:02.118211Z\t", "%5d" % q(1, 99999), " Quit\t\n"),
        "win_record_id": ("<EventRecordID>", str(q(10 ** 6, 10 ** 9)), "</EventRecordID>\n"),
        "pascal_guid": ("  IID_IService: TGUID = '", "{%s-%s-%s-%s-%s}" % (_s(r, UHEX, 8), _s(r, UHEX, 4), _s(r, UHEX, 4), _s(r, UHEX, 4), _s(r, UHEX, 12)), "';\n"),
    }[kind]
    doc.t(lead)
    doc.look(v, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["\n", "! --\n", "      * ---\n", "// ~~~\n", "# ---\n", "{- -}\n"]


def heldout7_doc(r, doc, m):
    """One text of the eighth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
