"""The twelfth held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout12`; not run on its own.

A thirteenth template family, written and committed before any detector
change of the tenth round (the round that closes heldout11's misses),
from real-world formats and not from the detectors' code. The session
that wrote it knew heldout11's per-class figures as its brief named them
(recall api_key, credit_card, phone, ipv6; precision email, ipv4,
us_ssn) and grepped the eleven earlier families only for surroundings
to keep clear of; only its per-class table is looked at until the
round's final measurement.

Surroundings that no other family writes, most from Windows
administration, telephony, enterprise data tools and chat platforms:
Windows Event Log XML (`<Data Name="IpAddress">`, event 4625),
`Get-ADUser | Format-List`, `cmdkey /add`, `runas /savecred`,
`schtasks /RU /RP`, `psexec -u -p`, `netsh interface ip`, `reg add`,
`wmic`; Asterisk dialplans (`Set(CALLERID(num)=...)`), SIP
`P-Asserted-Identity`, Kamailio logs; X12 834 enrollment segments
(`NM1*IL*...*34*`), Swiss QR-bill payloads, SWIFT MT103 `:59:` lines;
`tshark -T fields`, `kcat -C` consumer lines, BigQuery and `psql`
ASCII result tables, dnsmasq `DHCPACK`, Prometheus target labels,
Envoy access logs, Elasticsearch hits; Matrix `m.room.message`
events, XMPP stanzas, Mattermost and Zulip webhooks; protobuf text
format, Avro JSON records, Jenkins `withCredentials`, Quarkus and
Django settings, WordPress salts, Kafka JAAS lines; X.509 subjects
with `emailAddress=`, Windows UPNs, SRS and VERP bounce addresses;
prose in Faroese, Georgian, Sinhala, Tamil, Amharic, Armenian and
Mongolian (scripts, not transliterations). Values in shapes the
earlier families did not write: UATP and BC Card numbers, 18-digit
Maestro, cards as `4 4 4 4` groups with dots; IBANs of Faroe,
Greenland, Jordan, Lebanon, Tunisia, Dominican Republic, Guatemala,
Costa Rica, El Salvador, Azerbaijan, Georgia, Moldova, Albania,
North Macedonia, Vatican, Saint Lucia, Belarus, Iraq, Palestine, Sao
Tome, Timor-Leste, Virgin Islands, Libya, Sudan; phones with a slash
after the area code, `(0)` trunk in brackets for Swiss and Dutch
numbers, a `x123` extension, SIP URIs with `;user=phone`; IPv6 with a
zone index, with leading zeros in every group, `::`-compressed at the
front, IPv4-mapped in a URL; SSNs in EDI segments and PDF form dumps.

Look-alikes no family wrote as such a set: Windows SIDs, SNMP OIDs in
`snmpwalk` output, Windows build numbers, ICCIDs and IMEIs (Luhn-valid),
GTIN-14s, ISINs, LEIs, Kerberos SPNs, Erlang node names, systemd
template units, npm scoped `@scope/pkg@1.2.3`, Ethereum addresses,
UATP-like airline ticket numbers, X12 control numbers, MAC addresses
in `ip neigh`, Haskell `::` signatures, masked SSNs `XXX-XX-1234`,
Twitter-style handles, ULIDs, Kafka offsets, `sha1:` Git object ids.

It reuses only the value makers of `detect_corpus.py` (group4, luhn
digit) and the small ones of `detect_values.py`. Its texts are drawn
from their own seed (`detect_corpus.py` offsets the split's seed by
12012). It is the project's own, like the others.
"""
import base64

from detect_values import AN, D, HEX, UHEX, UP, _d, _nz, _put, _s, _seq, _ssn, _tok, with_check, family_doc, B64, B64URL, LOW


def _iban(r):
    country, bban = r.choice([
        ("FO", lambda: _d(r, 14)),
        ("GL", lambda: _d(r, 14)),
        ("JO", lambda: _s(r, UP, 4) + _d(r, 4) + _s(r, UP + D, 18)),
        ("LB", lambda: _d(r, 4) + _s(r, UP + D, 20)),
        ("TN", lambda: _d(r, 20)),
        ("DO", lambda: _s(r, UP + D, 4) + _d(r, 20)),
        ("GT", lambda: _s(r, UP + D, 4) + _s(r, UP + D, 20)),
        ("CR", lambda: "0" + _d(r, 17)),
        ("SV", lambda: _s(r, UP, 4) + _d(r, 20)),
        ("AZ", lambda: _s(r, UP, 4) + _s(r, UP + D, 20)),
        ("GE", lambda: _s(r, UP, 2) + _d(r, 16)),
        ("MD", lambda: _s(r, UP + D, 20)),
        ("AL", lambda: _d(r, 8) + _s(r, UP + D, 16)),
        ("MK", lambda: _d(r, 3) + _s(r, UP + D, 10) + _d(r, 2)),
        ("VA", lambda: _d(r, 18)),
        ("LC", lambda: _s(r, UP, 4) + _s(r, UP + D, 24)),
        ("BY", lambda: _s(r, UP + D, 4) + _d(r, 4) + _s(r, UP + D, 16)),
        ("IQ", lambda: _s(r, UP, 4) + _d(r, 15)),
        ("PS", lambda: _s(r, UP, 4) + _s(r, UP + D, 21)),
        ("ST", lambda: _d(r, 21)),
        ("TL", lambda: _d(r, 19)),
        ("VG", lambda: _s(r, UP, 4) + _d(r, 16)),
        ("LY", lambda: _d(r, 21)),
        ("SD", lambda: _d(r, 14)),
        ("DE", lambda: _d(r, 18)),
        ("NL", lambda: _s(r, UP, 4) + _d(r, 10)),
        ("CH", lambda: _d(r, 5) + _s(r, UP + D, 12)),
    ])
    return with_check(country, bban())


def _card(r, m):
    """A card of a brand or grouping no family named, with its Luhn digit."""
    kind = r.choice(["uatp", "bccard", "maestro18", "elo", "rupay", "troy", "visa19", "mc2", "amex", "discover",
                     "visa", "mc"])
    prefix, n = {
        "uatp": ("1" + r.choice(["100", "220", "300"]), 15),
        "bccard": (r.choice(["9410", "9420", "9430"]), 16),
        "maestro18": (r.choice(["6759", "6761", "6763"]), 18),
        "elo": (r.choice(["401178", "504175", "636368", "650901"]), 16),
        "rupay": (r.choice(["607", "652", "508"]), 16),
        "troy": ("9792", 16),
        "visa19": ("4", 19),
        "mc2": (str(r.randint(2221, 2720)), 16),
        "amex": (r.choice(["34", "37"]), 15),
        "discover": ("6011", 16),
        "visa": ("4", 16),
        "mc": (str(r.randint(51, 55)), 16),
    }[kind]
    body = prefix + _d(r, n - 1 - len(prefix))
    return body + m.luhn_digit(body), kind


def _shown(r, c):
    if len(c) == 15:
        return "%s %s %s" % (c[:4], c[4:10], c[10:])
    if len(c) in (18, 19):
        return r.choice([" ", "-"]).join(c[i:i + 4] for i in range(0, len(c), 4))
    return r.choice([" ", "-", ".", ""]).join(c[i:i + 4] for i in range(0, len(c), 4))


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([5, 31, 37, 41, 45, 49, 58, 61, 77, 84, 91, 101, 105, 121, 134, 141, 154, 165,
                                      176, 185, 190, 197, 201, 213, 217]),
                            r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2001:0%03x:%04x:%04x:%04x:%04x:%04x:%04x" % (r.randint(0x400, 0xfff), r.randint(0, 0xffff),
                                                            r.randint(0, 0xffff), r.randint(0, 0xffff),
                                                            r.randint(0, 0xffff), r.randint(0, 0xffff),
                                                            r.randint(1, 0xffff)),
        lambda: "2c0f:%s:%s::%s" % (g(), g(), g()),
        lambda: "2400:cb00:%s:%s:%s::%s" % (g(), g(), g(), g()),
        lambda: "2620:%s:%s:%s:%s::" % (g(), g(), g(), g()),
        lambda: "2a00:1450:%s:%s::%s" % (g(), g(), g()),
        lambda: "2001:67C:%s:%s::%s" % (g().upper(), g().upper(), g().upper()),
        lambda: "2806:%s:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g(), g()),
    ])()


def _b64u(raw):
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _jwt(r):
    alg = r.choice(["PS256", "ES256K", "RS384", "HS512"])
    head = '{"alg":"%s","typ":"at+jwt","kid":"%s"}' % (alg, _s(r, UHEX, 8))
    body = '{"sub":"%s","client_id":"%s","iat":%d,"roles":["%s"]}' % (
        _s(r, LOW + D, 14), r.choice(["matrix-bridge", "kiosk-12", "edi-gateway"]), r.randint(1_700_000_000, 1_900_000_000),
        r.choice(["Reader", "Task.Write", "Enrollment.Submit"]))
    sig = {"PS256": 342, "ES256K": 86, "RS384": 342, "HS512": 86}[alg]
    return "%s.%s.%s" % (_b64u(head), _b64u(body), _s(r, B64URL, sig))


def _pem_body(r, width=64):
    return [_s(r, B64, width) for _ in range(r.randint(5, 11))] + [_s(r, B64, r.randint(8, width - 4)) + "="]


# ------------------------------------------------------------------ items

def i_email(r, doc, m):
    e = "%s@%s" % (r.choice(["eydun.joensen", "nino.beridze", "kasun.perera", "arun.k", "selam.tesfaye", "ani.sargsyan",
                             "bat-erdene", "SVC_backup", "j.o'neill", "first.last.2", "a_b-c", "helpdesk+it",
                             "noreply.edi", "U12345", "kanban-bot"]),
                   r.choice(["dimma.fo", "magaliti.ge", "udaharana.lk", "ethuthukattu.in", "misale.et", "orinak.am",
                             "jishee.mn", "corp.example.engineering", "fwd.example.travel", "xn--mnchen-3ya.example",
                             "tenant.onmicrosoft.com", "chat.example.coop", "EXAMPLE.MUSEUM", "edi.example.aero"]))
    form = r.choice(["x509_subject", "ad_upn", "ad_mail", "event_xml_target", "srs", "verp", "matrix_sender",
                     "xmpp_from", "mattermost_hook", "zulip_hook", "protobuf_text", "avro_json", "bq_table",
                     "psql_table", "kcat_line", "jenkins_env", "django_admins", "quarkus_props", "fo_prose",
                     "ka_prose", "si_prose", "ta_prose", "am_prose", "hy_prose", "mn_prose"])
    if form == "srs":
        left, dom = e.split("@", 1)
        e = "SRS0=%s=%s=%s=%s@fwd.example.net" % (_s(r, AN, 4), _s(r, UP + D, 2), dom, left)
    if form == "verp":
        left, dom = e.split("@", 1)
        e = "bounces+%s-%s=%s@mail.example.net" % (_d(r, 6), left, dom)
    lead, tail = {
        "x509_subject": ("        Subject: C=FO, O=Dimma Ltd, CN=ops, emailAddress=", "\n        Subject Public Key Info:\n"),
        "ad_upn": ("PS C:\\> Get-ADUser eydun -Properties * | Format-List\n\nSamAccountName    : eydun\nUserPrincipalName : ", "\nEnabled           : True\n"),
        "ad_mail": ("DistinguishedName : CN=Nino Beridze,OU=Staff,DC=corp,DC=example\nmail              : ", "\n"),
        "event_xml_target": ("<EventData>\n  <Data Name=\"TargetUserName\">", "</Data>\n  <Data Name=\"LogonType\">3</Data>\n</EventData>\n"),
        "srs": ("Return-Path: <", ">\nX-Original-To: ops\n"),
        "verp": ("Return-Path: <", ">\nAuto-Submitted: auto-replied\n"),
        "matrix_sender": ("{\"type\":\"m.room.message\",\"content\":{\"msgtype\":\"m.text\",\"body\":\"mail me at ", "\"},\"sender\":\"@kasun:matrix.example\"}\n"),
        "xmpp_from": ("<message type='groupchat'><body>contact: ", "</body></message>\n"),
        "mattermost_hook": ("{\"channel\":\"town-square\",\"username\":\"hr-bot\",\"text\":\"New hire account: ", "\"}\n"),
        "zulip_hook": ("POST /api/v1/messages type=stream&to=ops&topic=accounts&content=reset%20for%20", "\n"),
        "protobuf_text": ("user {\n  id: 4412\n  email: \"", "\"\n  locale: \"fo-FO\"\n}\n"),
        "avro_json": ("{\"namespace\":\"crm\",\"customer\":{\"id\":4412,\"contact\":{\"string\":\"", "\"}}}\n"),
        "bq_table": ("+------+--------------------------------+\n|  id  | email                          |\n+------+--------------------------------+\n| 4412 | ", " |\n+------+--------------------------------+\n"),
        "psql_table": (" id  |           email\n-----+--------------------------\n 4412 | ", "\n(1 row)\n"),
        "kcat_line": ("% Reached end of topic users [2] at offset 88123\nkey=4412 value={\"op\":\"u\",\"after\":{\"email\":\"", "\"}}\n"),
        "jenkins_env": ("environment {\n    NOTIFY_TO = '", "'\n}\n"),
        "django_admins": ("ADMINS = [(\"Ops\", \"", "\")]\n"),
        "quarkus_props": ("quarkus.mailer.from=", "\nquarkus.mailer.host=smtp.example\n"),
        "fo_prose": ("Skriva til ", " um tú hevur spurningar.\n"),
        "ka_prose": ("დაგვიკავშირდით ელფოსტით: ", "\n"),
        "si_prose": ("විද්‍යුත් තැපෑල: ", "\n"),
        "ta_prose": ("மின்னஞ்சல் முகவரி: ", "\n"),
        "am_prose": ("ኢሜይል፦ ", "\n"),
        "hy_prose": ("Էլ. փոստ՝ ", "\n"),
        "mn_prose": ("Имэйл хаяг: ", "\n"),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    a, x, s = "%s%s" % (_nz(r), _d(r, 2)), "%s%s" % (_nz(r), _d(r, 2)), _d(r, 4)
    form = r.choice(["de_slash", "ch_trunk", "nl_trunk", "us_x_ext", "sip_user_phone", "pai_header", "asterisk_cid",
                     "kamailio", "tshark_sip", "bq_table", "protobuf_text", "avro_json", "matrix_body",
                     "ad_telephone", "fo_prose", "ka_prose", "si_prose", "ta_prose", "am_prose", "hy_prose",
                     "mn_prose", "us_dots_cc", "uk_spaced_trunk"])
    lead, p, tail = {
        "de_slash": ("Tel.: ", "+49 (0)%s/%s" % (r.choice(["171", "89", "30", "221"]), _d(r, 7)), "\n"),
        "ch_trunk": ("Natel: ", "+41 (0)79 %s %s %s" % (_d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "nl_trunk": ("Mobiel: ", "+31 (0)6 %s %s" % (_d(r, 4), _d(r, 4)), "\n"),
        "us_x_ext": ("Direct: ", "(%s) %s-%s" % (a, x, s), " x%s\n" % _d(r, 3)),
        "sip_user_phone": ("INVITE ", "sip:+1%s%s%s" % (a, x, s), "@carrier.example;user=phone SIP/2.0\n"),
        "pai_header": ("P-Asserted-Identity: <sip:", "+44%s%s" % (r.choice(["20", "161", "7700"]), _d(r, 6)), "@ims.example>\n"),
        "asterisk_cid": ("exten => s,1,Set(CALLERID(num)=", "+33%s%s" % (r.choice("67"), _d(r, 8)), ")\n"),
        "kamailio": ("INFO: <script>: new call from ", "+49%s%s" % (r.choice(["151", "160", "176"]), _d(r, 8)), " to 112\n"),
        "tshark_sip": ("$ tshark -r call.pcap -T fields -e sip.from.user\n", "+61%s%s" % (r.choice("234"), _d(r, 8)), "\n"),
        "bq_table": ("| 4412 | ", "+1 %s %s %s" % (a, x, s), " | active |\n"),
        "protobuf_text": ("contact {\n  phone_number: \"", "+46 70 %s %s %s" % (_d(r, 3), _d(r, 2), _d(r, 2)), "\"\n}\n"),
        "avro_json": ("{\"msisdn\":{\"string\":\"", "+34 6%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3)), "\"}}\n"),
        "matrix_body": ("{\"type\":\"m.room.message\",\"content\":{\"body\":\"call me on ", "+39 3%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 4)), "\"}}\n"),
        "ad_telephone": ("telephoneNumber   : ", "+1 %s-%s-%s" % (a, x, s), "\n"),
        "fo_prose": ("Ring til ", "+298 %s" % _d(r, 6), " um tú vilt.\n"),
        "ka_prose": ("ტელეფონი: ", "+995 5%s %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "si_prose": ("දුරකථන අංකය: ", "+94 7%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)), "\n"),
        "ta_prose": ("தொலைபேசி: ", "+91 9%s %s" % (_d(r, 4), _d(r, 5)), "\n"),
        "am_prose": ("ስልክ ቁጥር፦ ", "+251 9%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)), "\n"),
        "hy_prose": ("Հեռախոսահամար՝ ", "+374 9%s %s%s%s" % (_d(r, 1), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "mn_prose": ("Утасны дугаар: ", "+976 9%s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "us_dots_cc": ("Cell ", "+1.%s.%s.%s" % (a, x, s), "\n"),
        "uk_spaced_trunk": ("Switchboard: ", "+44 (0) 20 %s %s" % (_d(r, 4), _d(r, 4)), "\n"),
    }[form]
    _put(doc, lead, p, "phone", form, tail)


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    solid = a + g + s
    form = r.choice(["x12_nm1", "x12_ref", "pdf_form_dump", "protobuf_text", "avro_json", "bq_table", "psql_table",
                     "kcat_line", "event_xml", "ad_attribute", "matrix_body", "mattermost_hook", "fo_prose",
                     "ka_prose", "hy_prose", "quarkus_log"])
    lead, v, tail = {
        "x12_nm1": ("ISA*00*          *00*          *ZZ*SENDER*ZZ*RECEIVER~\nINS*Y*18*021*28*A***FT~\nNM1*IL*1*DOE*JANE****34*", solid, "~\n"),
        "x12_ref": ("INS*Y*18*030*XN*A~\nREF*0F*", solid, "~\nDTP*356*D8*20260101~\n"),
        "pdf_form_dump": ("$ pdftk fw4.pdf dump_data_fields_utf8\nFieldName: topmostSubform[0].Page1[0].Step1a[0].f1_05[0]\nFieldNameAlt: Social security number\nFieldValue: ", dashed, "\n"),
        "protobuf_text": ("applicant {\n  ssn: \"", dashed, "\"\n}\n"),
        "avro_json": ("{\"employee\":{\"ssn\":{\"string\":\"", dashed, "\"}}}\n"),
        "bq_table": ("| emp_id | ssn         |\n|--------|-------------|\n| 4412   | ", dashed, " |\n"),
        "psql_table": (" emp_id |     ssn\n--------+-------------\n   4412 | ", dashed, "\n(1 row)\n"),
        "kcat_line": ("key=4412 value={\"after\":{\"tax_id\":\"", dashed, "\",\"tax_id_type\":\"SSN\"}}\n"),
        "event_xml": ("<Data Name=\"EmployeeSSN\">", dashed, "</Data>\n"),
        "ad_attribute": ("employeeID        : 4412\nextensionAttribute7 (SSN) : ", dashed, "\n"),
        "matrix_body": ("{\"content\":{\"body\":\"my social is ", dashed, "\"},\"type\":\"m.room.message\"}\n"),
        "mattermost_hook": ("{\"text\":\"Payroll fix: SSN on file ", dashed, " is correct\"}\n"),
        "fo_prose": ("Amerikanskt SSN: ", dashed, "\n"),
        "ka_prose": ("აშშ სოციალური დაზღვევის ნომერი (SSN): ", dashed, "\n"),
        "hy_prose": ("ԱՄՆ սոցիալական ապահովության համար (SSN)՝ ", dashed, "\n"),
        "quarkus_log": ("2026-12-06 10:02:11,118 WARN  [com.exa.KycResource] (executor-thread-1) verify ssn=", dashed, " failed\n"),
    }[form]
    _put(doc, lead, v, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = _card(r, m)
    shown = _shown(r, c)
    form = r.choice(["iso8583_de2", "protobuf_text", "avro_json", "bq_table", "psql_table", "kcat_line",
                     "matrix_body", "mattermost_hook", "event_xml", "quarkus_log", "fo_prose", "ka_prose",
                     "si_prose", "ta_prose", "am_prose", "hy_prose", "mn_prose", "uatp_ticket_form"])
    lead, v, tail = {
        "iso8583_de2": ("MTI 0100\n  DE 002 Primary account number  LLVAR(%d): " % len(c), c, "\n  DE 004 Amount: 000000012000\n"),
        "protobuf_text": ("payment {\n  card_number: \"", shown, "\"\n  exp: \"11/29\"\n}\n"),
        "avro_json": ("{\"pan\":{\"string\":\"", c, "\"},\"amount\":12000}\n"),
        "bq_table": ("| order | pan                 |\n|-------|---------------------|\n| 88123 | ", shown, " |\n"),
        "psql_table": (" order_id |       card_number\n----------+---------------------\n    88123 | ", c, "\n(1 row)\n"),
        "kcat_line": ("key=88123 value={\"after\":{\"card_no\":\"", c, "\"}}\n"),
        "matrix_body": ("{\"content\":{\"body\":\"card is ", shown, " exp 11/29\"},\"type\":\"m.room.message\"}\n"),
        "mattermost_hook": ("{\"text\":\"Chargeback on card ", shown, ", please review\"}\n"),
        "event_xml": ("<Data Name=\"CardNumber\">", c, "</Data>\n"),
        "quarkus_log": ("2026-12-06 10:02:11,118 ERROR [com.exa.PayResource] charge declined pan=", c, "\n"),
        "fo_prose": ("Kortnummar: ", shown, "\n"),
        "ka_prose": ("ბარათის ნომერი: ", shown, "\n"),
        "si_prose": ("කාඩ්පත් අංකය: ", shown, "\n"),
        "ta_prose": ("அட்டை எண்: ", shown, "\n"),
        "am_prose": ("የካርድ ቁጥር፦ ", shown, "\n"),
        "hy_prose": ("Քարտի համարը՝ ", shown, "\n"),
        "mn_prose": ("Картын дугаар: ", shown, "\n"),
        "uatp_ticket_form": ("FOP: CC", c, "/1129 APPROVAL 0A1B2C\n"),
    }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = m.group4(i)
    form = r.choice(["qr_bill", "mt103_59", "protobuf_text", "avro_json", "bq_table", "psql_table", "kcat_line",
                     "matrix_body", "mattermost_hook", "x12_ref", "fo_prose", "ka_prose", "am_prose", "hy_prose",
                     "mn_prose", "ar_jo_prose", "es_gt_prose", "ro_md_prose", "sq_prose", "mk_prose", "az_prose"])
    lead, v, tail = {
        "qr_bill": ("SPC\n0200\n1\n", i, "\nS\nDimma Ltd\nBakkavegur\n1\n100\nTorshavn\nFO\n"),
        "mt103_59": (":50K:/CUSTOMER\n:59:/", i, "\nNINO BERIDZE\nTBILISI\n:70:/INV/88123\n"),
        "protobuf_text": ("beneficiary {\n  iban: \"", i, "\"\n}\n"),
        "avro_json": ("{\"account\":{\"iban\":{\"string\":\"", i, "\"}}}\n"),
        "bq_table": ("| name     | iban                             |\n| N. Beridze | ", spaced, " |\n"),
        "psql_table": (" payee | iban\n-------+------------------------------\n  4412 | ", i, "\n(1 row)\n"),
        "kcat_line": ("key=4412 value={\"after\":{\"payout_iban\":\"", i, "\"}}\n"),
        "matrix_body": ("{\"content\":{\"body\":\"send it to ", spaced, " thanks\"},\"type\":\"m.room.message\"}\n"),
        "mattermost_hook": ("{\"text\":\"Refund account updated to ", i, "\"}\n"),
        "x12_ref": ("N1*PE*DIMMA LTD~\nREF*IBN*", i, "~\n"),
        "fo_prose": ("Kontonummar (IBAN): ", spaced, "\n"),
        "ka_prose": ("ანგარიშის ნომერი: ", spaced, "\n"),
        "am_prose": ("የሂሳብ ቁጥር፦ ", i, "\n"),
        "hy_prose": ("Հաշվեհամար՝ ", spaced, "\n"),
        "mn_prose": ("Дансны дугаар: ", spaced, "\n"),
        "ar_jo_prose": ("يرجى التحويل إلى الحساب ", spaced, " شكراً.\n"),
        "es_gt_prose": ("Favor de depositar en la cuenta ", spaced, " a nombre de la empresa.\n"),
        "ro_md_prose": ("Contul de plată: ", i, "\n"),
        "sq_prose": ("Numri i llogarisë: ", spaced, "\n"),
        "mk_prose": ("Сметка: ", spaced, "\n"),
        "az_prose": ("Hesab nömrəsi: ", spaced, "\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4(r)
    form = r.choice(["event_4625", "event_xml_ip", "netsh_show", "wmic_nic", "dnsmasq_ack", "tshark_fields",
                     "prom_target", "envoy_access", "es_hit", "bq_table", "psql_inet", "kcat_line", "protobuf_text",
                     "avro_json", "matrix_body", "xmpp_presence", "sip_via", "kamailio_src", "fo_prose", "ka_prose",
                     "si_prose", "am_prose", "hy_prose", "mn_prose", "reg_add"])
    parts = {
        "event_4625": ["An account failed to log on.\nNetwork Information:\n\tWorkstation Name:\tKIOSK-12\n\tSource Network Address:\t", (ip, "ipv4"), "\n\tSource Port:\t\t52144\n"],
        "event_xml_ip": ["<Data Name=\"IpAddress\">", (ip, "ipv4"), "</Data>\n<Data Name=\"IpPort\">52144</Data>\n"],
        "netsh_show": ["PS C:\\> netsh interface ip show address \"Ethernet\"\n    DHCP enabled:                         No\n    IP Address:                           ", (ip, "ipv4"), "\n    Subnet Prefix:                        ", (ip2, "ipv4"), "/24\n"],
        "wmic_nic": ["C:\\> wmic nicconfig get IPAddress\n{\"", (ip, "ipv4"), "\"}\n"],
        "dnsmasq_ack": ["dnsmasq-dhcp[812]: DHCPACK(br0) ", (ip, "ipv4"), " 3c:22:fb:11:22:33 kiosk-12\n"],
        "tshark_fields": ["$ tshark -r edge.pcap -T fields -e ip.src -e tcp.dstport\n", (ip, "ipv4"), "\t443\n"],
        "prom_target": ["up{job=\"node\",instance=\"", (ip, "ipv4"), ":9100\"} 1\n"],
        "envoy_access": ["[2026-12-06T10:02:11.118Z] \"GET /v1/orders HTTP/1.1\" 200 - 0 1290 12 11 \"", (ip, "ipv4"), "\" \"okhttp/4.12.0\" \"a1b2c3\" \"orders\" \"", (ip2, "ipv4"), ":8080\"\n"],
        "es_hit": ["{\"_index\":\"logs-2026.12.06\",\"_source\":{\"source\":{\"ip\":\"", (ip, "ipv4"), "\"},\"event\":{\"action\":\"login\"}}}\n"],
        "bq_table": ["| ts                  | client_ip     |\n| 2026-12-06 10:02:11 | ", (ip, "ipv4"), " |\n"],
        "psql_inet": ["=> SELECT client_addr FROM pg_stat_activity;\n  client_addr\n----------------\n ", (ip, "ipv4"), "\n(1 row)\n"],
        "kcat_line": ["key=sess-88 value={\"remote\":\"", (ip, "ipv4"), "\",\"ok\":true}\n"],
        "protobuf_text": ["peer {\n  address: \"", (ip, "ipv4"), "\"\n  port: 50051\n}\n"],
        "avro_json": ["{\"client_ip\":{\"string\":\"", (ip, "ipv4"), "\"}}\n"],
        "matrix_body": ["{\"content\":{\"body\":\"the box is at ", (ip, "ipv4"), " now\"},\"type\":\"m.room.message\"}\n"],
        "xmpp_presence": ["<iq type='result'><query xmlns='jabber:iq:last'/><addr>", (ip, "ipv4"), "</addr></iq>\n"],
        "sip_via": ["Via: SIP/2.0/UDP ", (ip, "ipv4"), ":5060;branch=z9hG4bK776asdhds;rport\n"],
        "kamailio_src": ["NOTICE: <script>: REGISTER from src_ip=", (ip, "ipv4"), " src_port=5060\n"],
        "fo_prose": ["IP-adressan hjá kundanum var ", (ip, "ipv4"), ".\n"],
        "ka_prose": ["კლიენტის IP მისამართი: ", (ip, "ipv4"), "\n"],
        "si_prose": ["IP ලිපිනය: ", (ip, "ipv4"), "\n"],
        "am_prose": ["የአይፒ አድራሻ፦ ", (ip, "ipv4"), "\n"],
        "hy_prose": ["IP հասցե՝ ", (ip, "ipv4"), "\n"],
        "mn_prose": ["IP хаяг: ", (ip, "ipv4"), "\n"],
        "reg_add": ["C:\\> reg add HKLM\\SOFTWARE\\Agent /v Upstream /t REG_SZ /d ", (ip, "ipv4"), " /f\n"],
    }[form]
    _seq(doc, form, parts)


def i_ipv6(r, doc, m):
    ip = _v6(r)
    form = r.choice(["event_xml_ip6", "netsh_ipv6", "dnsmasq6", "tshark6", "prom_target6", "envoy6", "es_hit6",
                     "bq_table6", "psql_inet6", "protobuf6", "sip_via6", "zone_index", "mapped_url", "ka_prose",
                     "am_prose", "hy_prose", "fo_prose"])
    if form == "mapped_url":
        v4 = _v4(r)
        _seq(doc, form, ["GET http://[", ("::ffff:" + v4, "ipv6"), "]:8080/status -> 200\n"])
        return
    if form == "zone_index":
        _seq(doc, form, ["$ ping -6 ", ("fe80::%x:%x:%x:%x" % (r.randint(1, 0xffff), r.randint(1, 0xffff), r.randint(1, 0xffff), r.randint(1, 0xffff)), "ipv6"), "%eth0 -c 1\n"])
        return
    parts = {
        "event_xml_ip6": ["<Data Name=\"IpAddress\">", (ip, "ipv6"), "</Data>\n"],
        "netsh_ipv6": ["PS C:\\> netsh interface ipv6 show addresses\nPublic     Preferred    infinite   infinite ", (ip, "ipv6"), "\n"],
        "dnsmasq6": ["dnsmasq-dhcp[812]: DHCPREPLY(br0) ", (ip, "ipv6"), " 00:03:00:01:3c:22:fb:11:22:33 kiosk-12\n"],
        "tshark6": ["$ tshark -r edge.pcap -T fields -e ipv6.src\n", (ip, "ipv6"), "\n"],
        "prom_target6": ["up{job=\"node\",instance=\"[", (ip, "ipv6"), "]:9100\"} 1\n"],
        "envoy6": ["[2026-12-06T10:02:11.118Z] \"GET /v1/orders HTTP/2\" 200 - 0 1290 12 11 \"", (ip, "ipv6"), "\" \"curl/8.5.0\"\n"],
        "es_hit6": ["{\"_source\":{\"source\":{\"ip\":\"", (ip, "ipv6"), "\"}}}\n"],
        "bq_table6": ["| 2026-12-06 10:02:11 | ", (ip, "ipv6"), " |\n"],
        "psql_inet6": [" client_addr\n-------------\n ", (ip, "ipv6"), "\n(1 row)\n"],
        "protobuf6": ["peer {\n  address: \"", (ip, "ipv6"), "\"\n}\n"],
        "sip_via6": ["Via: SIP/2.0/TCP [", (ip, "ipv6"), "]:5060;branch=z9hG4bK88a\n"],
        "ka_prose": ["IPv6 მისამართი: ", (ip, "ipv6"), "\n"],
        "am_prose": ["የIPv6 አድራሻ፦ ", (ip, "ipv6"), "\n"],
        "hy_prose": ["IPv6 հասցե՝ ", (ip, "ipv6"), "\n"],
        "fo_prose": ["IPv6-adressan er ", (ip, "ipv6"), ".\n"],
    }[form]
    _seq(doc, form, parts)


def i_api_key(r, doc, m):
    t = _tok(r, r.randint(20, 36))
    pw = _tok(r, r.randint(12, 20)) + r.choice(["", "!", "#", "%", "^"])
    form = r.choice([
        "cmdkey", "runas_note", "schtasks", "psexec", "net_user", "jenkins_with_creds", "quarkus_props",
        "django_secret", "wordpress_salt", "kafka_jaas", "kcat_sasl", "protobuf_text", "avro_json",
        "matrix_access_token", "mattermost_token", "zulip_rc", "asterisk_secret", "kamailio_db",
        "event_xml", "fo_prose", "ka_prose", "si_prose", "ta_prose", "am_prose", "hy_prose", "mn_prose",
        "telegram_bot", "twilio_auth", "sendgrid", "new_relic", "grafana_sa"])
    lead, v, tail = {
        "cmdkey": ("C:\\> cmdkey /add:fileserver01 /user:CORP\\svc_backup /pass:", pw, "\n"),
        "runas_note": ("REM local admin for the kiosk image: admin / ", pw, "\n"),
        "schtasks": ("C:\\> schtasks /Create /TN Backup /TR backup.cmd /SC DAILY /RU CORP\\svc_backup /RP ", pw, "\n"),
        "psexec": ("C:\\> psexec \\\\kiosk-12 -u CORP\\admin -p ", pw, " cmd /c ipconfig\n"),
        "net_user": ("C:\\> net user svc_sql ", pw, " /add /domain\n"),
        "jenkins_with_creds": ("withEnv(['ARTIFACTORY_TOKEN=", t, "']) {\n    sh './publish.sh'\n}\n"),
        "quarkus_props": ("quarkus.datasource.password=", pw, "\nquarkus.datasource.jdbc.url=jdbc:postgresql://db:5432/app\n"),
        "django_secret": ("SECRET_KEY = '", "django-insecure-" + _s(r, LOW + D + "!@#$%^&*(-_=+)", 50), "'\n"),
        "wordpress_salt": ("define( 'AUTH_KEY',         '", _s(r, AN + "!@#$%^&*()-_[]{}<>~+=,.;:/?|", 64), "' );\n"),
        "kafka_jaas": ("sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"orders\" password=\"", pw, "\";\n"),
        "kcat_sasl": ("$ kcat -b broker:9093 -X security.protocol=SASL_SSL -X sasl.username=orders -X sasl.password=", pw, " -C -t orders\n"),
        "protobuf_text": ("credentials {\n  client_secret: \"", t, "\"\n}\n"),
        "avro_json": ("{\"integration\":{\"api_secret\":{\"string\":\"", t, "\"}}}\n"),
        "matrix_access_token": ("curl -H 'Authorization: Bearer ", "syt_" + _s(r, B64URL, 12) + "_" + _s(r, AN, 20) + "_" + _s(r, AN, 6), "' https://matrix.example/_matrix/client/v3/sync\n"),
        "mattermost_token": ("MM_BOT_TOKEN=", _s(r, LOW + D, 26), "\n"),
        "zulip_rc": ("[api]\nkey=", _s(r, AN, 32), "\nsite=https://zulip.example\n"),
        "asterisk_secret": ("[6001]\ntype=friend\ncontext=internal\nsecret=", pw, "\nhost=dynamic\n"),
        "kamailio_db": ("#!define DBURL \"mysql://kamailio:", pw, "@localhost/kamailio\"\n"),
        "event_xml": ("<Data Name=\"ServiceAccountPassword\">", pw, "</Data>\n"),
        "fo_prose": ("Nýggja loyniorðið er ", pw, "\n"),
        "ka_prose": ("ახალი პაროლი: ", pw, "\n"),
        "si_prose": ("නව මුරපදය: ", pw, "\n"),
        "ta_prose": ("புதிய கடவுச்சொல்: ", pw, "\n"),
        "am_prose": ("አዲሱ የይለፍ ቃል፦ ", pw, "\n"),
        "hy_prose": ("Նոր գաղտնաբառը՝ ", pw, "\n"),
        "mn_prose": ("Шинэ нууц үг: ", pw, "\n"),
        "telegram_bot": ("https://api.telegram.org/bot", "%d:AA%s" % (r.randint(10 ** 9, 8 * 10 ** 9), _s(r, B64URL, 33)), "/sendMessage?chat_id=-100123\n"),
        "twilio_auth": ("TWILIO_AUTH_TOKEN=", _s(r, HEX, 32), "\n"),
        "sendgrid": ("sg.api_key = \"", "SG." + _s(r, B64URL, 22) + "." + _s(r, B64URL, 43), "\"\n"),
        "new_relic": ("NEW_RELIC_LICENSE_KEY=", _s(r, HEX, 36) + "NRAL", "\n"),
        "grafana_sa": ("GF_TOKEN=", "glsa_" + _s(r, AN, 32) + "_" + _s(r, HEX, 8), "\n"),
    }[form]
    if form == "kamailio_db":
        _put(doc, lead, v, "url_credentials", form, tail)
        return
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["matrix_login", "xmpp_oauth", "kcat_header", "protobuf_text", "avro_json", "event_xml",
                     "jenkins_env", "envoy_header", "es_hit", "psql_table", "sip_identity", "ka_prose", "am_prose",
                     "hy_prose", "fo_prose", "ps_invoke"])
    lead, tail = {
        "matrix_login": ("{\"type\":\"org.matrix.login.jwt\",\"token\":\"", "\"}\n"),
        "xmpp_oauth": ("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='X-OAUTH2'>", "</auth>\n"),
        "kcat_header": ("$ kcat -C -t orders -f 'headers=%h\\n'\nheaders=authorization=Bearer ", ",trace=abc\n"),
        "protobuf_text": ("metadata {\n  key: \"authorization\"\n  value: \"Bearer ", "\"\n}\n"),
        "avro_json": ("{\"session\":{\"id_token\":{\"string\":\"", "\"}}}\n"),
        "event_xml": ("<Data Name=\"AccessToken\">", "</Data>\n"),
        "jenkins_env": ("withEnv(['ID_TOKEN=", "']) { sh 'deploy' }\n"),
        "envoy_header": ("[debug][http] ':authority', 'api.example'\n'authorization', 'Bearer ", "'\n"),
        "es_hit": ("{\"_source\":{\"http\":{\"request\":{\"headers\":{\"authorization\":\"Bearer ", "\"}}}}}\n"),
        "psql_table": (" user_id |  refresh_token\n---------+----------------\n    4412 | ", "\n(1 row)\n"),
        "sip_identity": ("Identity: ", ";info=<https://cert.example/sti.pem>;alg=ES256;ppt=shaken\n"),
        "ka_prose": ("წვდომის ტოკენი: ", "\n"),
        "am_prose": ("የመዳረሻ ቶከን፦ ", "\n"),
        "hy_prose": ("Մուտքի թոքեն՝ ", "\n"),
        "fo_prose": ("Atgongdartekin: ", "\n"),
        "ps_invoke": ("PS> Invoke-RestMethod -Uri https://api.example/me -Headers @{Authorization='Bearer ", "'}\n"),
    }[form]
    _put(doc, lead, _jwt(r), "jwt", form, tail)


def i_private_key(r, doc, m):
    kind = r.choice(["", "RSA ", "EC ", "DSA ", "OPENSSH "])
    form = r.choice(["protobuf_text", "avro_json", "jenkins_file_cred", "psql_table", "event_xml", "matrix_body",
                     "xmpp_body", "powershell_here", "batch_echo", "cr_lf", "ka_prose", "am_prose", "hy_prose",
                     "fo_prose", "mn_prose"])
    head, foot = "-----BEGIN %sPRIVATE KEY-----" % kind, "-----END %sPRIVATE KEY-----" % kind
    lines = _pem_body(r)
    k = "\n".join([head] + lines + [foot])
    if form == "protobuf_text":
        v = "\\n".join([head] + lines + [foot])
        lead, tail = "tls {\n  key_pem: \"", "\\n\"\n}\n"
    elif form == "avro_json":
        v = "\\n".join([head] + lines + [foot])
        lead, tail = "{\"secret\":{\"pem\":{\"string\":\"", "\"}}}\n"
    elif form == "jenkins_file_cred":
        lead, v, tail = "// credentials.xml\n<privateKeySource class=\"DirectEntryPrivateKeySource\">\n  <privateKey>", k, "</privateKey>\n</privateKeySource>\n"
    elif form == "psql_table":
        v = " +\n".join([head] + lines + [foot])
        lead, tail = " id |  pem\n----+------\n  1 | ", "\n(1 row)\n"
    elif form == "event_xml":
        lead, v, tail = "<Data Name=\"KeyMaterial\">", k, "</Data>\n"
    elif form == "matrix_body":
        v = "\\n".join([head] + lines + [foot])
        lead, tail = "{\"type\":\"m.room.message\",\"content\":{\"msgtype\":\"m.text\",\"body\":\"", "\"}}\n"
    elif form == "xmpp_body":
        lead, v, tail = "<message type='chat'><body>", k, "</body></message>\n"
    elif form == "powershell_here":
        lead, v, tail = "$key = @'\n", k, "\n'@\nSet-Content -Path key.pem -Value $key\n"
    elif form == "batch_echo":
        # The label spans the key (`-----BEGIN` to the END line's dashes),
        # not the `echo ` before it and the redirection after it (label fix
        # of the eleventh round; the text is byte-identical).
        v = ">>key.pem\necho ".join([head] + lines + [foot])
        lead, tail = "@echo off\necho ", ">>key.pem\n"
    elif form == "cr_lf":
        lead, v, tail = "key.pem:\r\n", "\r\n".join([head] + lines + [foot]), "\r\n"
    else:
        lead, v, tail = {
            "ka_prose": ("სერვერის პირადი გასაღები:\n", k, "\nნუ გაუზიარებთ.\n"),
            "am_prose": ("የአገልጋዩ የግል ቁልፍ፦\n", k, "\nአታጋሩት።\n"),
            "hy_prose": ("Սերվերի գաղտնի բանալին՝\n", k, "\nՄի կիսվեք։\n"),
            "fo_prose": ("Privati lykilin hjá ambætaranum:\n", k, "\nDeil hann ikki.\n"),
            "mn_prose": ("Серверийн хувийн түлхүүр:\n", k, "\nБүү хуваалц.\n"),
        }[form]
    _put(doc, lead, v, "private_key", "%s_%s" % (form, kind.strip().lower() or "pkcs8"), tail)


def i_url(r, doc, m):
    pw = _tok(r, r.randint(10, 22)) + r.choice(["", "", "!", "%23", "%40" + _d(r, 2), "-", "."])
    form = r.choice(["jdbc_in_url", "kafka_connect", "protobuf_text", "avro_json", "matrix_body", "mattermost_hook",
                     "event_xml", "psql_table", "reg_add", "powershell_uri", "sip_uri_pw", "es_hit", "prom_remote",
                     "ka_prose", "am_prose", "hy_prose", "fo_prose"])
    lead, tail = {
        "jdbc_in_url": ("spring.datasource.url=jdbc:mysql://app:", "@db.example:3306/shop?useSSL=true\n"),
        "kafka_connect": ("\"connection.url\": \"mongodb+srv://sink:", "@cluster0.example.net/orders\",\n"),
        "protobuf_text": ("upstream {\n  url: \"https://relay:", "@relay.example/v1\"\n}\n"),
        "avro_json": ("{\"source\":{\"dsn\":{\"string\":\"postgres://etl:", "@warehouse.example/dw\"}}}\n"),
        "matrix_body": ("{\"content\":{\"body\":\"use https://guest:", "@share.example/team for the files\"},\"type\":\"m.room.message\"}\n"),
        "mattermost_hook": ("{\"text\":\"mirror is at https://mirror:", "@pkgs.example/simple\"}\n"),
        "event_xml": ("<Data Name=\"RemoteUrl\">smb://CORP;svc:", "@fileserver01/share</Data>\n"),
        "psql_table": ("   name   |     conninfo\n----------+--------------------------------\n replica | postgresql://repl:", "@replica.example:5432/app\n"),
        "reg_add": ("C:\\> reg add HKCU\\Software\\Sync /v Remote /d https://sync:", "@dav.example/files /f\n"),
        "powershell_uri": ("PS> $u = [Uri]'ftp://upload:", "@ftp.example/in'; $wc.UploadFile($u, 'a.zip')\n"),
        "sip_uri_pw": ("Contact: <sip:6001:", "@pbx.example:5060;transport=tls>\n"),
        "es_hit": ("{\"_source\":{\"config\":{\"output\":\"https://elastic:", "@es.example:9200\"}}}\n"),
        "prom_remote": ("remote_write:\n  - url: https://metrics:", "@prom.example/api/v1/write\n"),
        "ka_prose": ("ფაილები ატვირთეთ https://nino:", "@files.example.ge/ მისამართზე.\n"),
        "am_prose": ("ፋይሎቹን ወደ https://selam:", "@files.example.et/ ይስቀሉ።\n"),
        "hy_prose": ("Վերբեռնեք https://ani:", "@files.example.am/ հասցեով։\n"),
        "fo_prose": ("Legg fílurnar upp á https://eydun:", "@filur.example.fo/.\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def _luhn_complete(m, body):
    return body + m.luhn_digit(body)


def i_look(r, doc, m):
    q = r.randint
    kind = r.choice([
        "windows_sid", "snmp_oid", "windows_build", "iccid", "imei", "gtin14", "isin", "lei", "kerberos_spn",
        "erlang_node", "systemd_template", "npm_scoped", "eth_address", "airline_ticket", "x12_control",
        "ip_neigh_mac", "haskell_sig", "masked_ssn", "handle", "ulid", "kafka_offset", "git_sha1",
        "event_record_id", "snowflake_ts", "psql_lsn", "bq_job_id", "matrix_event_id", "matrix_room_alias",
        "sip_call_id", "iso8583_stan", "qr_ref", "mt103_ref", "dotnet_version",
        "chrome_version", "semver_four", "ipv4_port_range", "ticket_ref_ssn_shape",
        "phone_like_order", "tracking_dhl", "kb_article", "cve", "uuid_v7", "guid_braced"])
    hexid = lambda n: _s(r, HEX, n)
    lead, v, tail = {
        "windows_sid": ("SID: ", "S-1-5-21-%d-%d-%d-%d" % (q(10 ** 9, 4 * 10 ** 9), q(10 ** 9, 4 * 10 ** 9), q(10 ** 8, 4 * 10 ** 9), q(1000, 9999)), "\n"),
        "snmp_oid": ("$ snmpwalk -v2c -c public switch-1 ", ".1.3.6.1.2.1.%d.%d.%d.%d" % (q(1, 30), q(1, 20), q(1, 200), q(1, 200)), "\n"),
        "windows_build": ("OS Version: ", "10.0.%d.%d" % (q(19041, 26100), q(100, 5000)), " Build\n"),
        "iccid": ("ICCID: ", _luhn_complete(m, "8901" + _d(r, 14)), "\n"),
        "imei": ("IMEI: ", _luhn_complete(m, "35" + _d(r, 12)), "\n"),
        "gtin14": ("GTIN: ", "1" + _d(r, 13), "\n"),
        "isin": ("ISIN ", "US%s%s" % (_d(r, 9), _d(r, 1)), " (equity)\n"),
        "lei": ("LEI: ", _s(r, UP + D, 18) + _d(r, 2), "\n"),
        "kerberos_spn": ("servicePrincipalName: ", "HTTP/web01.corp.example", "\n"),
        "erlang_node": ("Node: ", "rabbit@rabbitmq-%d" % q(0, 9), " is up\n"),
        "systemd_template": ("Started ", "getty@tty%d.service" % q(1, 6), ".\n"),
        "npm_scoped": ("+ ", "@acme/ui-kit@%d.%d.%d" % (q(1, 9), q(0, 30), q(0, 30)), "\n"),
        "eth_address": ("to: ", "0x" + hexid(40), "\n"),
        "airline_ticket": ("TKT ", "176-" + _d(r, 10), " ISSUED\n"),
        "x12_control": ("IEA*1*", _d(r, 9), "~\n"),
        "ip_neigh_mac": ("neighbour on dev eth0 lladdr ", ":".join(_s(r, HEX, 2) for _ in range(6)), " REACHABLE\n"),
        "haskell_sig": ("", "lookupUser :: UserId -> IO (Maybe User)", "\n"),
        "masked_ssn": ("SSN on file: ", "XXX-XX-%s" % _d(r, 4), "\n"),
        "handle": ("cc ", "@%s" % r.choice(["nino_b", "kasun", "ops-oncall", "eydun"]), " for review\n"),
        "ulid": ("request_id=", "01" + _s(r, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24), "\n"),
        "kafka_offset": ("% Reached end of topic orders [3] at offset ", str(q(10 ** 6, 10 ** 12)), "\n"),
        "git_sha1": ("tree ", hexid(40), "\n"),
        "event_record_id": ("<EventRecordID>", str(q(10 ** 6, 10 ** 10)), "</EventRecordID>\n"),
        "snowflake_ts": ("\"id\":\"", str(q(10 ** 17, 10 ** 18)), "\"\n"),
        "psql_lsn": ("pg_current_wal_lsn: ", "%X/%X" % (q(0, 255), q(0, 2 ** 32)), "\n"),
        "bq_job_id": ("Job ", "bquxjob_%s_%s" % (hexid(8), hexid(12)), " done\n"),
        "matrix_event_id": ("\"event_id\":\"", "$" + _s(r, B64URL, 43), "\"\n"),
        "matrix_room_alias": ("joined ", "#ops:matrix.example", "\n"),
        "sip_call_id": ("Call-ID: ", "%s@pbx.example" % hexid(24), "\n"),
        "iso8583_stan": ("DE 011 STAN: ", _d(r, 6), "  DE 037 RRN: " + _d(r, 12) + "\n"),
        "qr_ref": ("QRR\n", _d(r, 27), "\n"),
        "mt103_ref": (":20:", "REF" + _s(r, UP + D, 13), "\n"),
        "dotnet_version": ("Microsoft.NETCore.App ", "8.0.%d" % q(0, 20), " [C:\\Program Files\\dotnet]\n"),
        "chrome_version": ("Chrome/", "%d.0.%d.%d" % (q(100, 140), q(4000, 7000), q(10, 300)), " Safari/537.36\n"),
        "semver_four": ("FileVersion: ", "%d.%d.%d.%d" % (q(1, 20), q(0, 20), q(0, 200), q(0, 255)), "\n"),
        "ipv4_port_range": ("ephemeral ports ", "%d-%d" % (q(30000, 40000), q(50000, 65535)), "\n"),
        "ticket_ref_ssn_shape": ("Order ", "%03d-%02d-%04d" % (q(100, 899), q(10, 99), q(1000, 9999)), " shipped (order no.)\n"),
        "phone_like_order": ("Invoice #", "%d-%03d-%04d" % (q(200, 999), q(100, 999), q(1000, 9999)), " paid\n"),
        "tracking_dhl": ("DHL Waybill: ", _d(r, 10), "\n"),
        "kb_article": ("Installed ", "KB%d" % q(4000000, 5099999), "\n"),
        "cve": ("Fixes ", "CVE-%d-%d" % (q(2015, 2026), q(1000, 49999)), ".\n"),
        "uuid_v7": ("trace=", "%s-%s-7%s-%s-%s" % (hexid(8), hexid(4), hexid(3), hexid(4), hexid(12)), "\n"),
        "guid_braced": ("ProviderGuid=", "{%s-%s-%s-%s-%s}" % (_s(r, UHEX, 8), _s(r, UHEX, 4), _s(r, UHEX, 4), _s(r, UHEX, 4), _s(r, UHEX, 12)), "\n"),
    }[kind]
    doc.t(lead)
    doc.look(v, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["\n", "----\n", "::\n", "REM ----\n", "; ----\n", "\n\n", "<!-- -->\n"]


def heldout12_doc(r, doc, m):
    """One text of the thirteenth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
