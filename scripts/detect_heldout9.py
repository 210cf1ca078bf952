"""The ninth held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout9`; not run on its own.

A tenth template family, written and committed before any detector
change of the seventh round (the round that closes heldout8's misses),
from real-world formats and not from the detectors' code. The session
that wrote it knew heldout8's miss classes as its brief named them
(api_key in blank-separated directives such as `.netrc`, Redis
`requirepass`, Junos `secret`, IMAP `LOGIN`; private keys caught in
part; some IPv4 and IPv6) and the detectors' source; only its per-class
table is looked at until the round's final measurement.

Surroundings that no other family writes: pfSense filterlog CSV,
PAN-OS traffic CSV, AWS ALB access logs, GCP load balancer and
Cloudflare Logpush JSON, Heroku router lines, Windows Firewall
`pfirewall.log`, Exchange message tracking, Tomcat access-log valve,
Varnish, Consul, Nomad, etcd and ZooKeeper logs, iptables-save rules,
docker `-p` publishes, Kubernetes `externalIPs`; configs of Drupal
`settings.php`, Django `DATABASES`, Joomla `configuration.php`, Magento
`env.php`, Odoo, Jupyter, Minecraft `server.properties`, Mumble, WeeChat,
Squid `cache_peer`, Bacula, Icinga 2, Zabbix,
Arista EOS and Huawei VRP, Kustomize `secretGenerator`; command lines
(`redis-cli -a`, `ldapsearch -w`, `smbclient -U user%pw`, `lftp -u
user,pw`, `net use`, `rabbitmqctl add_user`, `docker login -p`,
`mysqldump --password=`, `sqlcmd -P`, `wget --password=`); code in C,
C++, Raku, D, VB.NET, Smalltalk, Guile Scheme, CMake, ReScript,
PureScript and Hack; tables in HTML, LaTeX `tabular`, MediaWiki,
AsciiDoc, Org-mode, MySQL client boxes and TSV with a header; prose in
Icelandic, Luxembourgish, Frisian, Scottish Gaelic, Breton, Occitan,
Telugu, Kannada, Malayalam, Marathi, Gujarati, Punjabi, Lao, Tajik,
Kyrgyz, Pashto, Kurdish, Hausa, Igbo, Xhosa, Maori, Haitian Creole,
Quechua and Tatar; phones of 20 countries not used before (also with a
`(0)` trunk digit and a `wa.me` link); IBANs of the 17 countries of the
detector's table that no family used (BI, DJ, FK, HN, LC, LY, MN, MR,
NI, OM, RU, SD, SO, ST, TL, VG, YE); card brands no family wrote (JCB,
Diners, UnionPay, Mir, Discover 64x/65, 19-digit Visa); new shapes
(traditional encrypted PEM with `Proc-Type`/`DEK-Info` headers, a PEM
folded onto one line, PEM quoted with `> ` in mail, in a C++ raw string
and an XML CDATA section; JWTs with `kid`/`x5t` headers and ES256 or
RS256 signatures in URL fragments, form posts and WebSocket protocol
headers; IPv6 written upper-case, fully expanded, IPv4-mapped and NAT64;
IPv4 with a CIDR suffix, in ranges and in brackets; URL credentials of
amqps, nats, sftp, smb, ldaps, rtsp, neo4j and clickhouse; provider
token formats no family wrote) and look-alikes (W3C `traceparent`,
webhook signatures, ETags, Nix store paths, IPFS CIDs, ULIDs, masked
PANs, court docket numbers, HTS tariff codes, CUSIPs, FIGIs, patent
numbers, C++ and Rust `::` paths, SMPTE timecodes, systemd template
units, Go `module@version`, public PEM blocks (certificates, CSRs,
public keys, DH parameters), non-secret values under secret-named keys,
outline numbers after Icelandic, Frisian and Telugu words (never in
10/8: the project keeps those redacted by decision)).

It reuses only the value makers of `detect_corpus.py` (group4, luhn
digit) and the small ones of `detect_values.py`. Its texts are drawn
from their own seed (`detect_corpus.py` offsets the split's seed by
9009). It is the project's own, like the others.
"""
import base64
import json

from detect_values import AN, D, HEX, UHEX, UP, _d, _nz, _put, _s, _seq, _ssn, _tok, with_check, family_doc, B64, B64URL, LOW


def _iban(r):
    country, bban = r.choice([
        ("BI", lambda: _d(r, 23)),
        ("DJ", lambda: _d(r, 23)),
        ("FK", lambda: _s(r, UP, 2) + _d(r, 12)),
        ("HN", lambda: _s(r, UP, 4) + _d(r, 20)),
        ("LC", lambda: _s(r, UP, 4) + _s(r, UP + D, 24)),
        ("LY", lambda: _d(r, 21)),
        ("MN", lambda: _d(r, 16)),
        ("MR", lambda: _d(r, 23)),
        ("NI", lambda: _s(r, UP, 4) + _d(r, 20)),
        ("OM", lambda: _d(r, 3) + _s(r, UP + D, 16)),
        ("RU", lambda: _d(r, 14) + _s(r, UP + D, 15)),
        ("SD", lambda: _d(r, 14)),
        ("SO", lambda: _d(r, 19)),
        ("ST", lambda: _d(r, 21)),
        ("TL", lambda: _d(r, 19)),
        ("VG", lambda: _s(r, UP, 4) + _d(r, 16)),
        ("YE", lambda: _s(r, UP, 4) + _d(r, 4) + _s(r, UP + D, 18)),
    ])
    return with_check(country, bban())


def _card(r, m):
    """A card of a brand no other family writes, with its Luhn digit."""
    kind = r.choice(["jcb", "diners", "unionpay", "unionpay19", "mir", "disc65", "disc64", "visa19"])
    prefix, n = {
        "jcb": (str(r.randint(3528, 3589)), 16),
        "diners": (r.choice(["36", "38", "300", "305"]), 14),
        "unionpay": ("62" + _d(r, 2), 16),
        "unionpay19": ("62" + _d(r, 2), 19),
        "mir": ("220" + str(r.randint(0, 4)), 16),
        "disc65": ("65", 16),
        "disc64": (str(r.randint(644, 649)), 16),
        "visa19": ("4", 19),
    }[kind]
    body = prefix + _d(r, n - 1 - len(prefix))
    return body + m.luhn_digit(body), kind


def _shown(r, c):
    if len(c) == 14:
        return "%s %s %s" % (c[:4], c[4:10], c[10:])
    sep = r.choice([" ", "-", "", " "])
    return sep.join(c[i:i + 4] for i in range(0, len(c), 4))


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([3, 13, 24, 34, 52, 63, 71, 82, 98, 104, 141, 162, 198, 203, 216]),
                            r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2a02:%s:%s:%s::%s" % (g(), g(), g(), g()),
        lambda: "2600:%s:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g(), g()),
        lambda: ("2A0B:%s:%s::%s" % (g(), g(), g())).upper(),
        lambda: "2001:%04x:%04x:0000:0000:%04x:%04x:%04x" % tuple(r.randint(0, 0xffff) for _ in range(5)),
        lambda: "::ffff:%s" % _v4(r),
        lambda: "64:ff9b::%s" % _v4(r),
        lambda: "2406:%s:%s:%s:%s::%s" % (g(), g(), g(), g(), g()),
        lambda: "2804:%s:%s:%s:%s:%s::%s" % (g(), g(), g(), g(), g(), g()),
    ])()


def _b64u(obj):
    return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode().rstrip("=")


def _jwt(r):
    """A JWT with a header no other family writes (kid, x5t, ES256, RS256,
    EdDSA) and a signature of its algorithm's length."""
    alg = r.choice(["RS256", "ES256", "EdDSA", "PS384", "HS512"])
    head = {"typ": "JWT", "alg": alg} if r.random() < 0.5 else {"alg": alg, "kid": _s(r, AN, 22)}
    if r.random() < 0.3:
        head["x5t"] = _s(r, B64URL, 27)
    body = {"iss": "https://login.example.is/", "sub": _d(r, 9), "aud": "api", "exp": r.randint(1_700_000_000, 1_900_000_000)}
    if r.random() < 0.5:
        body["scope"] = "openid profile"
    sig = {"RS256": 342, "ES256": 86, "EdDSA": 86, "PS384": 342, "HS512": 86}[alg]
    return "%s.%s.%s" % (_b64u(head), _b64u(body), _s(r, B64URL, sig))


def _pem_lines(r, width=64):
    return [_s(r, B64, width) for _ in range(r.randint(5, 14))] + [_s(r, B64, r.randint(8, width - 4)) + "=="]


# ------------------------------------------------------------------ items

def i_email(r, doc, m):
    e = "%s@%s" % (r.choice(["jon.sigurdsson", "anouk.weber", "sjoerd", "morag.macleod", "yann.kerbrat", "ostal",
                             "ravi.teja", "kavya.gowda", "anjali.nair", "swapnil.patil", "hetal.shah", "gurpreet",
                             "souksavanh", "farrukh.r", "aibek", "wahid.k", "rojin", "aminu", "chidi.okafor",
                             "lwazi", "aroha.t", "jean-baptiste", "killa", "ilnur", "billing+eu", "Ops.Team",
                             "no-reply.2026"]),
                   r.choice(["daemi.is", "beispill.lu", "foarbyld.frl", "eisimpleir.scot", "skouer.bzh",
                             "exemple.cat", "udaharana.in", "mail.example.co.in", "sample.la", "namuna.tj",
                             "mysal.kg", "bilgelma.af", "nimune.krd", "misali.ng", "ihe.example.ng", "umzekelo.co.za",
                             "tauira.co.nz", "egzanp.ht", "ejemplo.pe", "misal.tatar", "xn--exmple-cua.example",
                             "corp-mail.example.photography", "EXAMPLE.IS"]))
    form = r.choice(["sql_where", "ldap_filter", "excel_hyperlink", "signed_off", "md_autolink", "pgp_uid",
                     "html_td", "latex_cell", "mediawiki_cell", "org_table", "c_define", "raku", "vbnet",
                     "smalltalk", "exchange_tracking", "is_prose", "lb_prose", "fy_prose", "gd_prose", "br_prose",
                     "te_prose", "kn_prose", "ml_prose", "lo_prose", "ps_prose", "ha_prose", "mi_prose",
                     "ht_prose", "qu_prose", "mailto_query"])
    lead, tail = {
        "sql_where": ("SELECT id FROM customers WHERE lower(email) = '", "' LIMIT 1;\n"),
        "ldap_filter": ("ldapsearch -LLL -b dc=example,dc=is '(mail=", ")' cn\n"),
        "excel_hyperlink": ("=HYPERLINK(\"mailto:", "\"; \"Senda póst\")\n"),
        "signed_off": ("\n    Fix the retry budget\n\n    Signed-off-by: Jón Sigurðsson <", ">\n"),
        "md_autolink": ("Questions? Write to <", "> and we will answer.\n"),
        "pgp_uid": ("uid           [ultimate] Anouk Weber <", ">\nsub   cv25519 2026-01-02 [E]\n"),
        "html_td": ("<tr><td>Sjoerd de Vries</td><td>", "</td><td>Ljouwert</td></tr>\n"),
        "latex_cell": ("Morag MacLeod & ", " & Inbhir Nis \\\\\n"),
        "mediawiki_cell": ("|-\n| Yann Kerbrat || ", " || Brest\n"),
        "org_table": ("| Ravi Teja | ", " | Hyderabad |\n"),
        "c_define": ("#define SUPPORT_ADDR \"", "\"\n"),
        "raku": ("my $contact = '", "';\n"),
        "vbnet": ("Dim replyTo As String = \"", "\"\n"),
        "smalltalk": ("mailer recipient: '", "'.\n"),
        "exchange_tracking": ("2026-12-06T09:14:02.118Z,,EXCH01,08DC1A2B3C4D5E6F,RECEIVE,SMTP,<", ">,\n"),
        "is_prose": ("Sendu okkur tölvupóst á ", " ef spurningar vakna.\n"),
        "lb_prose": ("Schreift eis op ", ", mir äntweren séier.\n"),
        "fy_prose": ("Stjoer in e-mail nei ", " foar mear ynformaasje.\n"),
        "gd_prose": ("Cuir post-d gu ", " ma tha ceist agad.\n"),
        "br_prose": ("Skrivit deomp da ", ".\n"),
        "te_prose": ("మాకు ఇమెయిల్ పంపండి: ", "\n"),
        "kn_prose": ("ನಮಗೆ ಇಮೇಲ್ ಮಾಡಿ: ", "\n"),
        "ml_prose": ("ഞങ്ങൾക്ക് ഇമെയിൽ അയയ്ക്കുക: ", "\n"),
        "lo_prose": ("ອີເມວ: ", "\n"),
        "ps_prose": ("موږ ته برېښنالیک واستوئ: ", "\n"),
        "ha_prose": ("Aiko mana da imel a ", ".\n"),
        "mi_prose": ("Tukuna he īmēra ki ", ".\n"),
        "ht_prose": ("Voye yon imèl bay ", " si w gen kesyon.\n"),
        "qu_prose": ("Kay correo nisqaman qillqamuway: ", "\n"),
        "mailto_query": ("<a href=\"mailto:", "?subject=Factuur%202026-118\">mail ons</a>\n"),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    form = r.choice(["at_trunk", "be_trunk", "sg_mobile", "hk_mobile", "tw_mobile", "sa_mobile", "qa_mobile",
                     "om_mobile", "tn_mobile", "sn_mobile", "rw_mobile", "tz_mobile", "pa_mobile", "bo_mobile",
                     "py_mobile", "md_mobile", "me_mobile", "mv_mobile", "la_mobile", "tm_mobile",
                     "us_wa_me", "us_tel_href", "us_html_td", "us_latex", "us_vbnet", "us_cpp", "us_nomad_meta",
                     "us_plus_dots"])
    a, x, s = "%s%s" % (_nz(r), _d(r, 2)), "%s%s" % (_nz(r), _d(r, 2)), _d(r, 4)
    lead, p, tail = {
        "at_trunk": ("Mobil: ", "+43 (0)6%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 4)), "\n"),
        "be_trunk": ("GSM: ", "+32 (0)47%s %s %s %s" % (_d(r, 1), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "sg_mobile": ("Handphone: ", "+65 9%s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "hk_mobile": ("手提電話：", "+852 9%s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "tw_mobile": ("手機：", "+886 9%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3)), "\n"),
        "sa_mobile": ("الجوال: ", "+966 5%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)), "\n"),
        "qa_mobile": ("Mobile: ", "+974 %s%s %s" % (r.choice("3567"), _d(r, 3), _d(r, 4)), "\n"),
        "om_mobile": ("هاتف: ", "+968 9%s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "tn_mobile": ("Tél. portable : ", "+216 %s%s %s %s" % (r.choice("2459"), _d(r, 1), _d(r, 3), _d(r, 3)), "\n"),
        "sn_mobile": ("Portable : ", "+221 77 %s %s %s" % (_d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "rw_mobile": ("Telefone: ", "+250 78%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)), "\n"),
        "tz_mobile": ("Simu: ", "+255 7%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3)), "\n"),
        "pa_mobile": ("Celular: ", "+507 6%s-%s" % (_d(r, 3), _d(r, 4)), "\n"),
        "bo_mobile": ("Celular: ", "+591 7%s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "py_mobile": ("Celular: ", "+595 98%s %s" % (_d(r, 1), _d(r, 6)), "\n"),
        "md_mobile": ("Mobil: ", "+373 6%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)), "\n"),
        "me_mobile": ("Mob: ", "+382 6%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)), "\n"),
        "mv_mobile": ("Mobile: ", "+960 7%s-%s" % (_d(r, 2), _d(r, 4)), "\n"),
        "la_mobile": ("ໂທລະສັບ: ", "+856 20 %s %s" % (_d(r, 4), _d(r, 4)), "\n"),
        "tm_mobile": ("Telefon: ", "+993 6%s %s%s" % (_d(r, 1), _d(r, 2), _d(r, 4)), "\n"),
        "us_wa_me": ("Message us on WhatsApp: https://wa.me/", "1%s%s%s" % (a, x, s), "\n"),
        "us_tel_href": ("<a href=\"tel:", "+1-%s-%s-%s" % (a, x, s), "\">Call sales</a>\n"),
        "us_html_td": ("<tr><th>Phone</th><td>", "(%s) %s-%s" % (a, x, s), "</td></tr>\n"),
        "us_latex": ("Front desk & ", "+1 %s %s %s" % (a, x, s), " \\\\\n"),
        "us_vbnet": ("Const HelpDeskPhone As String = \"", "%s-%s-%s" % (a, x, s), "\"\n"),
        "us_cpp": ("static constexpr auto kOnCallPhone = \"", "+1 (%s) %s-%s" % (a, x, s), "\";\n"),
        "us_nomad_meta": ("  meta {\n    oncall_phone = \"", "+1 %s-%s-%s" % (a, x, s), "\"\n  }\n"),
        "us_plus_dots": ("Tel. ", "+1.%s.%s.%s" % (a, x, s), "\n"),
    }[form]
    _put(doc, lead, p, "phone", form, tail)


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    spaced = "%s %s %s" % (a, g, s)
    form = r.choice(["html_table", "latex_table", "mediawiki_table", "asciidoc_table", "org_table", "mysql_box",
                     "tsv_header", "c_struct", "cpp", "raku", "d_lang", "vbnet", "smalltalk", "ss_hash",
                     "soc_sec_no", "tin_ssn", "spaced_ssn_word", "hack"])
    lead, v, tail = {
        "html_table": ("<table><tr><th>Name</th><th>SSN</th></tr>\n<tr><td>R. Alvarez</td><td>", dashed, "</td></tr></table>\n"),
        "latex_table": ("\\begin{tabular}{ll}\nName & SSN \\\\\n\\hline\nR. Alvarez & ", dashed, " \\\\\n\\end{tabular}\n"),
        "mediawiki_table": ("{| class=\"wikitable\"\n! Name !! SSN\n|-\n| R. Alvarez || ", dashed, "\n|}\n"),
        "asciidoc_table": ("|===\n|Name |SSN\n\n|R. Alvarez\n|", dashed, "\n|===\n"),
        "org_table": ("| Name       | SSN         |\n|------------+-------------|\n| R. Alvarez | ", dashed, " |\n"),
        "mysql_box": ("+----+------------+-------------+\n| id | name       | ssn         |\n+----+------------+-------------+\n|  7 | R. Alvarez | ",
                      dashed, " |\n+----+------------+-------------+\n"),
        "tsv_header": ("employee\tdept\tssn\nR. Alvarez\tpayroll\t", dashed, "\n"),
        "c_struct": ("struct employee e = { .name = \"R. Alvarez\", .ssn = \"", dashed, "\" };\n"),
        "cpp": ("const std::string applicant_ssn{\"", dashed, "\"};\n"),
        "raku": ("my %emp = name => 'R. Alvarez', ssn => '", dashed, "';\n"),
        "d_lang": ("enum testSsn = \"", dashed, "\";\n"),
        "vbnet": ("Dim employeeSsn As String = \"", dashed, "\"\n"),
        "smalltalk": ("employee ssn: '", dashed, "'.\n"),
        "ss_hash": ("Employee SS# ", dashed, " on file.\n"),
        "soc_sec_no": ("Soc. Sec. No.: ", dashed, "\n"),
        "tin_ssn": ("Payee TIN (SSN): ", dashed, "\n"),
        "spaced_ssn_word": ("Social Security number ", spaced, " verified.\n"),
        "hack": ("const string TEST_SSN = '", dashed, "';\n"),
    }[form]
    _put(doc, lead, v, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = _card(r, m)
    shown = _shown(r, c)
    form = r.choice(["html_input", "latex_cell", "mediawiki_cell", "asciidoc_cell", "org_cell", "mysql_box",
                     "tsv_header", "c_array", "cpp", "raku", "d_lang", "vbnet", "smalltalk", "rescript",
                     "is_prose", "lb_prose", "te_prose", "mr_prose", "gu_prose", "pa_prose", "tg_prose", "ky_prose",
                     "ig_prose", "xh_prose", "tt_prose"])
    lead, v, tail = {
        "html_input": ("<input name=\"cardnumber\" autocomplete=\"cc-number\" value=\"", shown, "\">\n"),
        "latex_cell": ("Kortnúmer & ", shown, " \\\\\n"),
        "mediawiki_cell": ("|-\n| Card number || ", shown, "\n"),
        "asciidoc_cell": ("|Card number\n|", shown, "\n"),
        "org_cell": ("| card number | ", shown, " |\n"),
        "mysql_box": ("| order_id | pan                 |\n+----------+---------------------+\n|    %s | " % _d(r, 5), c,
                      " |\n"),
        "tsv_header": ("order\tholder\tpan\texp\n%s\tA. Weber\t" % _d(r, 6), c, "\t11/29\n"),
        "c_array": ("static const char *test_pans[] = { \"", c, "\" };\n"),
        "cpp": ("const auto card_number = std::string{\"", shown, "\"};\n"),
        "raku": ("my $card-number = '", shown, "';\n"),
        "d_lang": ("immutable cardNumber = \"", c, "\";\n"),
        "vbnet": ("Dim cardNumber As String = \"", shown, "\"\n"),
        "smalltalk": ("payment cardNumber: '", shown, "'.\n"),
        "rescript": ("let cardNumber = \"", shown, "\"\n"),
        "is_prose": ("Kortanúmerið er ", shown, ".\n"),
        "lb_prose": ("D'Kaartennummer ass ", shown, ".\n"),
        "te_prose": ("కార్డు సంఖ్య: ", shown, "\n"),
        "mr_prose": ("कार्ड क्रमांक: ", shown, "\n"),
        "gu_prose": ("કાર્ડ નંબર: ", shown, "\n"),
        "pa_prose": ("ਕਾਰਡ ਨੰਬਰ: ", shown, "\n"),
        "tg_prose": ("Рақами корт: ", shown, "\n"),
        "ky_prose": ("Картанын номери: ", shown, "\n"),
        "ig_prose": ("Nọmba kaadị: ", shown, "\n"),
        "xh_prose": ("Inombolo yekhadi lakho ngu-", shown, ".\n"),
        "tt_prose": ("Карта номеры: ", shown, "\n"),
    }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = m.group4(i)
    form = r.choice(["html_td", "latex_cell", "mediawiki_cell", "asciidoc_cell", "org_cell", "tsv_header",
                     "c_define", "raku", "d_lang", "vbnet", "hack", "odoo_xml", "is_prose", "lb_prose", "fy_prose",
                     "gd_prose", "oc_prose", "ml_prose", "ky_prose", "ps_prose", "ku_prose", "ha_prose", "qu_prose"])
    lead, v, tail = {
        "html_td": ("<tr><th>IBAN</th><td>", spaced, "</td></tr>\n"),
        "latex_cell": ("IBAN & \\texttt{", i, "} \\\\\n"),
        "mediawiki_cell": ("|-\n| IBAN || ", spaced, "\n"),
        "asciidoc_cell": ("|IBAN\n|", i, "\n"),
        "org_cell": ("| IBAN | ", spaced, " |\n"),
        "tsv_header": ("payee\tiban\tamount\nA. Weber\t", i, "\t120.00\n"),
        "c_define": ("#define PAYOUT_IBAN \"", i, "\"\n"),
        "raku": ("my $iban = '", i, "';\n"),
        "d_lang": ("enum payeeIban = \"", i, "\";\n"),
        "vbnet": ("Dim payeeIban As String = \"", i, "\"\n"),
        "hack": ("const string PAYOUT_IBAN = '", i, "';\n"),
        "odoo_xml": ("<field name=\"acc_number\">", i, "</field>\n"),
        "is_prose": ("Vinsamlegast greiðið inn á reikning ", spaced, ".\n"),
        "lb_prose": ("Iwwerweist w.e.g. op ", spaced, ".\n"),
        "fy_prose": ("Betelje op rekken ", spaced, ".\n"),
        "gd_prose": ("Àireamh IBAN: ", spaced, "\n"),
        "oc_prose": ("Pagatz sul compte ", spaced, ".\n"),
        "ml_prose": ("ഐബാൻ: ", i, "\n"),
        "ky_prose": ("Эсеп (IBAN): ", spaced, "\n"),
        "ps_prose": ("د حساب IBAN: ", i, "\n"),
        "ku_prose": ("Hejmara IBAN: ", spaced, "\n"),
        "ha_prose": ("Lambar asusun IBAN: ", spaced, "\n"),
        "qu_prose": ("Kay cuentaman churay: ", spaced, "\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4(r)
    form = r.choice(["pfsense", "panos", "alb", "gcp_lb", "cloudflare", "heroku_router", "win_firewall",
                     "exchange", "tomcat_valve", "varnish", "consul", "nomad", "etcd", "zookeeper",
                     "iptables_save", "docker_publish", "k8s_external_ips", "cidr_prose", "range_acl",
                     "bracket_smtp", "is_prose", "fy_prose", "te_prose", "kn_prose", "ky_prose", "tt_prose",
                     "ht_prose"])
    parts = {
        "pfsense": ["Dec  6 09:14:02 fw filterlog[7011]: 5,,,1000000103,igb0,match,block,in,4,0x0,,64,0,0,DF,6,tcp,60,",
                    (ip, "ipv4"), ",", (ip2, "ipv4"), ",52144,443,0,S,2871,,64240,,mss\n"],
        "panos": ["1,2026/12/06 09:14:02,012801000123,TRAFFIC,end,2561,2026/12/06 09:14:02,", (ip, "ipv4"), ",",
                  (ip2, "ipv4"), ",0.0.0.0,0.0.0.0,allow-web,,,ssl,vsys1,trust,untrust,ethernet1/2,ethernet1/1\n"],
        "alb": ["https 2026-12-06T09:14:02.118211Z app/prod-alb/50dc6c495c0c9188 ", (ip, "ipv4"), ":52144 ",
                (ip2, "ipv4"), ":8080 0.000 0.012 0.000 200 200 34 366 \"GET https://example.is:443/ HTTP/1.1\"\n"],
        "gcp_lb": ["{\"httpRequest\":{\"requestMethod\":\"GET\",\"status\":200,\"remoteIp\":\"", (ip, "ipv4"),
                   "\",\"serverIp\":\"", (ip2, "ipv4"), "\",\"latency\":\"0.012s\"}}\n"],
        "cloudflare": ["{\"ClientIP\":\"", (ip, "ipv4"), "\",\"ClientRequestHost\":\"example.is\",\"EdgeResponseStatus\":200,"
                       "\"OriginIP\":\"", (ip2, "ipv4"), "\"}\n"],
        "heroku_router": ["2026-12-06T09:14:02.118211+00:00 heroku[router]: at=info method=GET path=\"/\" host=app.example.is "
                          "request_id=5a1b2c3d fwd=\"", (ip, "ipv4"), "\" dyno=web.1 connect=0ms service=12ms status=200\n"],
        "win_firewall": ["2026-12-06 09:14:02 DROP TCP ", (ip, "ipv4"), " ", (ip2, "ipv4"), " 52144 3389 52 S 2871 0 64240 - - - RECEIVE\n"],
        "exchange": ["2026-12-06T09:14:02.118Z,EXCH01\\Default Frontend EXCH01,08DC1A2B3C4D5E6F,3,", (ip2, "ipv4"),
                     ":25,", (ip, "ipv4"), ":52144,<,EHLO mail.example.is,\n"],
        "tomcat_valve": ["", (ip, "ipv4"), " - - [06/Dec/2026:09:14:02 +0000] \"GET /manager/html HTTP/1.1\" 401 2473 12\n"],
        "varnish": ["", (ip, "ipv4"), " - - [06/Dec/2026:09:14:02 +0000] \"GET http://example.is/ HTTP/1.1\" 200 612 \"-\" "
                    "\"curl/8.5.0\" 0.000118 miss\n"],
        "consul": ["2026-12-06T09:14:02.118Z [INFO]  agent.server.serf.lan: serf: EventMemberJoin: node-3 ", (ip, "ipv4"), "\n"],
        "nomad": ["    2026-12-06T09:14:02.118Z [INFO]  client: node registration complete: address=", (ip, "ipv4"), ":4647\n"],
        "etcd": ["{\"level\":\"info\",\"ts\":\"2026-12-06T09:14:02.118Z\",\"msg\":\"added member\",\"added-peer-peer-urls\":[\"https://",
                 (ip, "ipv4"), ":2380\"]}\n"],
        "zookeeper": ["2026-12-06 09:14:02,118 [myid:1] - INFO  [NIOServerCxnFactory:0.0.0.0/0.0.0.0:2181] - Accepted socket connection from /",
                      (ip, "ipv4"), ":52144\n"],
        "iptables_save": ["-A INPUT -s ", (ip, "ipv4"), "/32 -p tcp -m tcp --dport 22 -j ACCEPT\n"],
        "docker_publish": ["docker run -d -p ", (ip, "ipv4"), ":8080:80 --name web nginx:1.27\n"],
        "k8s_external_ips": ["spec:\n  type: ClusterIP\n  externalIPs:\n    - ", (ip, "ipv4"), "\n"],
        "cidr_prose": ["We allowlisted ", (ip, "ipv4"), "/29 for the partner's egress.\n"],
        "range_acl": ["allow range ", (ip, "ipv4"), "-", (ip2, "ipv4"), " on port 5432\n"],
        "bracket_smtp": ["Received: from mx.example.is (mx.example.is [", (ip, "ipv4"), "])\n"],
        "is_prose": ["IP-tala netþjónsins er ", (ip, "ipv4"), ", vinsamlegast athugið eldvegginn.\n"],
        "fy_prose": ["It IP-adres fan de tsjinner is ", (ip, "ipv4"), ".\n"],
        "te_prose": ["సర్వర్ IP చిరునామా ", (ip, "ipv4"), ".\n"],
        "kn_prose": ["ಸರ್ವರ್ IP ವಿಳಾಸ: ", (ip, "ipv4"), "\n"],
        "ky_prose": ["Сервердин IP дареги: ", (ip, "ipv4"), "\n"],
        "tt_prose": ["Серверның IP адресы ", (ip, "ipv4"), ".\n"],
        "ht_prose": ["Adrès IP sèvè a se ", (ip, "ipv4"), ".\n"],
    }[form]
    _seq(doc, form, parts)


def i_ipv6(r, doc, m):
    ip, ip2 = _v6(r), _v6(r)
    form = r.choice(["pfsense6", "panos6", "alb6", "cloudflare6", "heroku6", "win_firewall6", "exchange6",
                     "tomcat6", "consul6", "iptables6", "docker6", "bracket_smtp6", "is_prose", "lb_prose",
                     "ml_prose", "ku_prose"])
    parts = {
        "pfsense6": ["Dec  6 09:14:02 fw filterlog[7011]: 9,,,1000000103,igb0,match,block,in,6,0x00,0x00000,64,tcp,6,40,",
                     (ip, "ipv6"), ",", (ip2, "ipv6"), ",52144,443,0,S\n"],
        "panos6": ["1,2026/12/06 09:14:02,012801000123,TRAFFIC,end,2561,2026/12/06 09:14:02,", (ip, "ipv6"), ",",
                   (ip2, "ipv6"), ",,,allow-web,,,ssl,vsys1\n"],
        "alb6": ["h2 2026-12-06T09:14:02.118211Z app/prod-alb/50dc6c495c0c9188 ", (ip, "ipv6"), ":52144 - -1 -1 -1 460 - 0 57\n"],
        "cloudflare6": ["{\"ClientIP\":\"", (ip, "ipv6"), "\",\"ClientCountry\":\"is\"}\n"],
        "heroku6": ["at=info method=POST path=\"/login\" fwd=\"", (ip, "ipv6"), "\" status=302\n"],
        "win_firewall6": ["2026-12-06 09:14:02 ALLOW UDP ", (ip, "ipv6"), " ", (ip2, "ipv6"), " 546 547 0 - - - - - - - SEND\n"],
        "exchange6": ["2026-12-06T09:14:02.118Z,EXCH01\\Client Proxy EXCH01,08DC1A2B3C4D5E70,0,[", (ip, "ipv6"),
                      "]:465,<,AUTH LOGIN,\n"],
        "tomcat6": ["", (ip, "ipv6"), " - - [06/Dec/2026:09:14:02 +0000] \"POST /api HTTP/1.1\" 201 88 7\n"],
        "consul6": ["2026-12-06T09:14:02.118Z [INFO]  agent: Joining cluster: nodes=[", (ip, "ipv6"), "]\n"],
        "iptables6": ["-A INPUT -s ", (ip, "ipv6"), "/128 -p tcp --dport 443 -j ACCEPT\n"],
        "docker6": ["docker run -d -p [", (ip, "ipv6"), "]:8443:443 caddy:2\n"],
        "bracket_smtp6": ["Received: from mx.example.is (mx.example.is [IPv6:", (ip, "ipv6"), "])\n"],
        "is_prose": ["IPv6-vistfang biðlarans er ", (ip, "ipv6"), ".\n"],
        "lb_prose": ["D'IPv6-Adress vum Client ass ", (ip, "ipv6"), ".\n"],
        "ml_prose": ["ക്ലയന്റിന്റെ IPv6 വിലാസം: ", (ip, "ipv6"), "\n"],
        "ku_prose": ["Navnîşana IPv6: ", (ip, "ipv6"), "\n"],
    }[form]
    _seq(doc, form, parts)


def i_api_key(r, doc, m):
    form = r.choice([
        "drupal", "django", "joomla", "magento", "odoo", "jupyter", "minecraft_rcon", "mumble", "weechat",
        "squid_peer", "bacula", "icinga2", "zabbix_psk", "arista", "huawei", "kustomize",
        "redis_cli_a", "ldapsearch_w", "smbclient_pct", "lftp_comma", "net_use", "rabbitmqctl", "docker_login",
        "mysqldump", "sqlcmd", "wget_password", "c_define", "cpp_constexpr", "raku", "d_lang", "vbnet",
        "smalltalk", "guile", "cmake", "rescript", "purescript", "hack",
        "doppler", "notion", "flyio", "supabase", "netlify", "databricks", "atlassian", "postman", "grafana_sa",
        "vault_hvs", "tfc", "digitalocean", "dockerhub", "age_key", "telegram_bot", "mailgun"])
    t = _tok(r, r.randint(16, 32))
    lead, v, tail = {
        "drupal": ("$databases['default']['default'] = [\n  'username' => 'drupal',\n  'password' => '", t, "',\n];\n"),
        "django": ("DATABASES = {\n    'default': {\n        'USER': 'app',\n        'PASSWORD': '", t, "',\n    }\n}\n"),
        "joomla": ("class JConfig {\n\tpublic $user = 'joomla';\n\tpublic $password = '", t, "';\n"),
        "magento": ("'db' => ['connection' => ['default' => ['username' => 'magento', 'password' => '", t, "']]],\n"),
        "odoo": ("[options]\ndb_user = odoo\nadmin_passwd = ", t, "\n"),
        "jupyter": ("c.ServerApp.token = '", t, "'\n"),
        "minecraft_rcon": ("enable-rcon=true\nrcon.port=25575\nrcon.password=", t, "\n"),
        "mumble": ("; murmur.ini\nwelcometext=\"Velkomin\"\nserverpassword=", t, "\n"),
        "weechat": ("/set irc.server.libera.sasl_password \"", t, "\"\n"),
        "squid_peer": ("cache_peer parent.example.is parent 3128 0 no-query login=squid:", t, "\n"),
        "bacula": ("Director {\n  Name = bacula-dir\n  Password = \"", t, "\"\n}\n"),
        "icinga2": ("object ApiUser \"root\" {\n  password = \"", t, "\"\n}\n"),
        "zabbix_psk": ("TLSPSKIdentity=agent-web1\nTLSPSK=", _s(r, HEX, 64), "\n"),
        "arista": ("username admin privilege 15 role network-admin secret 0 ", t, "\n"),
        "huawei": ("aaa\n local-user netops password cipher ", t, "\n"),
        "kustomize": ("secretGenerator:\n- name: db-creds\n  literals:\n  - password=", t, "\n"),
        "redis_cli_a": ("redis-cli -h cache.example.is -p 6379 -a ", t, " --no-auth-warning PING\n"),
        "ldapsearch_w": ("ldapsearch -x -H ldaps://ldap.example.is -D cn=reader,dc=example,dc=is -w ", t, " -b dc=example,dc=is\n"),
        "smbclient_pct": ("smbclient //files.example.is/share -U backup%", t, " -c 'ls'\n"),
        "lftp_comma": ("lftp -u deploy,", t, " sftp://files.example.is\n"),
        "net_use": ("net use Z: \\\\files\\share ", t, " /user:EXAMPLE\\backup /persistent:no\n"),
        "rabbitmqctl": ("rabbitmqctl add_user metrics ", t, "\n"),
        "docker_login": ("docker login registry.example.is -u ci -p ", t, "\n"),
        "mysqldump": ("mysqldump --user=backup --password=", t, " --single-transaction shop > shop.sql\n"),
        "sqlcmd": ("sqlcmd -S db.example.is -U sa -P ", t, " -Q \"SELECT 1\"\n"),
        "wget_password": ("wget --user=mirror --password=", t, " https://files.example.is/dump.tar.gz\n"),
        "c_define": ("#define API_KEY \"", t, "\"\n"),
        "cpp_constexpr": ("constexpr std::string_view kApiSecret = \"", t, "\";\n"),
        "raku": ("my $api-token = '", t, "';\n"),
        "d_lang": ("enum apiSecret = \"", t, "\";\n"),
        "vbnet": ("Private Const ApiKey As String = \"", t, "\"\n"),
        "smalltalk": ("client apiToken: '", t, "'.\n"),
        "guile": ("(define %api-secret \"", t, "\")\n"),
        "cmake": ("set(DEPLOY_TOKEN \"", t, "\" CACHE STRING \"\")\n"),
        "rescript": ("let apiKey = \"", t, "\"\n"),
        "purescript": ("apiToken :: String\napiToken = \"", t, "\"\n"),
        "hack": ("const string API_SECRET = '", t, "';\n"),
        "doppler": ("DOPPLER_TOKEN=", "dp.st.prd." + _s(r, AN, 40), "\n"),
        "notion": ("NOTION_TOKEN=", "ntn_" + _d(r, 11) + _s(r, AN, 35), "\n"),
        "flyio": ("FLY_API_TOKEN=", "fo1_" + _s(r, AN + "_-", 43), "\n"),
        "supabase": ("supabase login --token ", "sbp_" + _s(r, HEX, 40), "\n"),
        "netlify": ("NETLIFY_AUTH_TOKEN=", "nfp_" + _tok(r, 36), "\n"),
        "databricks": ("DATABRICKS_TOKEN=", "dapi" + _s(r, HEX, 32), "\n"),
        "atlassian": ("JIRA_API_TOKEN=", "ATATT3xFfGF0" + _s(r, AN + "_-", 180) + "=" + _s(r, UHEX, 8), "\n"),
        "postman": ("POSTMAN_API_KEY=", "PMAK-" + _s(r, HEX, 24) + "-" + _s(r, HEX, 34), "\n"),
        "grafana_sa": ("GRAFANA_TOKEN=", "glsa_" + _tok(r, 32) + "_" + _s(r, HEX, 8), "\n"),
        "vault_hvs": ("export VAULT_TOKEN=", "hvs." + _tok(r, 24), "\n"),
        "tfc": ("credentials \"app.terraform.io\" {\n  token = \"", _tok(r, 14) + ".atlasv1." + _tok(r, 67), "\"\n}\n"),
        "digitalocean": ("DIGITALOCEAN_TOKEN=", "dop_v1_" + _s(r, HEX, 64), "\n"),
        "dockerhub": ("echo \"", "dckr_pat_" + _s(r, AN + "_-", 27), "\" | docker login -u ci --password-stdin\n"),
        "age_key": ("# created: 2026-12-06T09:14:02Z\n# public key: age1" + _s(r, "qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58) + "\n",
                    "AGE-SECRET-KEY-1" + _s(r, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58), "\n"),
        "telegram_bot": ("TELEGRAM_BOT_TOKEN=", "%d:AA%s" % (r.randint(10 ** 8, 10 ** 10 - 1), _s(r, AN + "_-", 33)), "\n"),
        "mailgun": ("MAILGUN_API_KEY=", "key-" + _s(r, HEX, 32), "\n"),
    }[form]
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["url_fragment", "form_post", "ws_protocol", "nextauth_cookie", "c_define", "cpp", "raku",
                     "vbnet", "cmake", "is_prose", "te_prose", "etcd_log", "hack", "kubectl_flag"])
    lead, tail = {
        "url_fragment": ("Location: https://app.example.is/callback#access_token=", "&token_type=Bearer&expires_in=3600\n"),
        "form_post": ("POST /signin-oidc HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\n\nid_token=", "&state=8f2c1a\n"),
        "ws_protocol": ("Sec-WebSocket-Protocol: access_token, ", "\n"),
        "nextauth_cookie": ("Cookie: __Secure-next-auth.session-token=", "; Path=/\n"),
        "c_define": ("#define TEST_ID_TOKEN \"", "\"\n"),
        "cpp": ("const std::string bearer = \"", "\";\n"),
        "raku": ("my $id-token = '", "';\n"),
        "vbnet": ("Dim accessToken As String = \"", "\"\n"),
        "cmake": ("set(SERVICE_JWT \"", "\")\n"),
        "is_prose": ("Hér er aðgangstókinn minn: ", " (gildir í klukkustund).\n"),
        "te_prose": ("నా టోకెన్: ", "\n"),
        "etcd_log": ("{\"level\":\"warn\",\"msg\":\"invalid auth token\",\"token\":\"", "\"}\n"),
        "hack": ("$token = '", "';\n"),
        "kubectl_flag": ("kubectl --server=https://k8s.example.is:6443 --token=", " get pods\n"),
    }[form]
    _put(doc, lead, _jwt(r), "jwt", form, tail)


def i_private_key(r, doc, m):
    kind = r.choice(["", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED "])
    form = r.choice(["proc_type", "one_line", "mail_quoted", "cpp_raw", "xml_cdata", "cmake_bracket", "d_wysiwyg",
                     "raku_heredoc", "is_prose", "ml_prose", "toml_literal", "vbnet_xml_literal"])
    head, foot = "-----BEGIN %sPRIVATE KEY-----" % kind, "-----END %sPRIVATE KEY-----" % kind
    lines = _pem_lines(r)
    k = "\n".join([head] + lines + [foot])
    if form == "proc_type":
        kind = "RSA "
        k = "\n".join(["-----BEGIN RSA PRIVATE KEY-----", "Proc-Type: 4,ENCRYPTED",
                       "DEK-Info: AES-256-CBC,%s" % _s(r, UHEX, 32), ""] + lines + ["-----END RSA PRIVATE KEY-----"])
        lead, v, tail = "$ cat /etc/ssl/private/legacy.key\n", k, "\n$ \n"
    elif form == "one_line":
        lead, v, tail = "TLS_KEY=\"", " ".join([head] + lines + [foot]), "\"\n"
    elif form == "mail_quoted":
        lead, v, tail = "On Sun, Dec 6, 2026 at 9:14 AM Jón wrote:\n> here is the key:\n> ", k.replace("\n", "\n> "), "\n>\n> thanks\n"
    elif form == "cpp_raw":
        lead, v, tail = "static const char kKey[] = R\"(", k, ")\";\n"
    elif form == "xml_cdata":
        lead, v, tail = "<signingKey><![CDATA[", k, "]]></signingKey>\n"
    elif form == "cmake_bracket":
        lead, v, tail = "set(TEST_KEY [=[", k, "]=])\n"
    elif form == "d_wysiwyg":
        lead, v, tail = "enum testKey = `", k, "`;\n"
    elif form == "raku_heredoc":
        lead, v, tail = "my $key = q:to/END/;\n", k, "\nEND\n"
    elif form == "is_prose":
        lead, v, tail = "Einkalykill netþjónsins:\n", k, "\nEkki deila honum.\n"
    elif form == "ml_prose":
        lead, v, tail = "സ്വകാര്യ കീ:\n", k, "\nആരുമായും പങ്കിടരുത്.\n"
    elif form == "toml_literal":
        lead, v, tail = "[tls]\nkey = '''\n", k, "\n'''\n"
    else:
        lead, v, tail = "Dim key = <key>", k, "</key>.Value\n"
    _put(doc, lead, v, "private_key", "%s_%s" % (form, kind.strip().lower() or "pkcs8"), tail)


def i_url(r, doc, m):
    pw = _tok(r, r.randint(10, 20)) + r.choice(["", "", "~", "!", "$", "*", ";x", ",1", "%2F" + _d(r, 2)])
    form = r.choice(["amqps", "nats", "sftp", "smb", "ldaps", "rtsp", "neo4j", "clickhouse", "c_define", "raku",
                     "vbnet", "cmake", "is_prose", "te_prose", "mongodb_srv", "sqlserver"])
    lead, tail = {
        "amqps": ("CELERY_BROKER_URL=amqps://worker:", "@mq.example.is:5671/prod\n"),
        "nats": ("nats sub -s nats://sensor:", "@nats.example.is:4222 'telemetry.>'\n"),
        "sftp": ("rclone copy ./out sftp://deploy:", "@files.example.is/incoming\n"),
        "smb": ("mount -t smbfs //backup:", "@nas.example.is/backups /mnt/b\n"),
        "ldaps": ("LDAP_URI=ldaps://cn%3Dreader:", "@ldap.example.is:636\n"),
        "rtsp": ("ffplay \"rtsp://viewer:", "@cam3.example.is:554/Streaming/Channels/101\"\n"),
        "neo4j": ("NEO4J_URI=neo4j+s://neo4j:", "@graph.example.is:7687\n"),
        "clickhouse": ("clickhouse_dsn: clickhouse://reader:", "@ch.example.is:9440/analytics?secure=true\n"),
        "c_define": ("#define DB_URL \"postgres://app:", "@db.example.is:5432/app\"\n"),
        "raku": ("my $dsn = 'mysql://app:", "@db.example.is/shop';\n"),
        "vbnet": ("Dim feedUrl = \"https://reader:", "@feeds.example.is/private.xml\"\n"),
        "cmake": ("set(MIRROR_URL \"https://ci:", "@artifacts.example.is/cmake\")\n"),
        "is_prose": ("Tengstu með https://jon:", "@skrar.example.is/ og hladdu upp.\n"),
        "te_prose": ("ఈ లింక్ వాడండి: https://ravi:", "@files.example.in/\n"),
        "mongodb_srv": ("MONGO_URL=mongodb+srv://svc:", "@cluster0.ab1cd.mongodb.net/app?retryWrites=true\n"),
        "sqlserver": ("SQLSERVER_URL=sqlserver://sa:", "@mssql.example.is:1433?database=erp\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def _outline(r):
    # Never 10 as the first part: the project keeps `10.x.y.z` redacted by decision.
    return "%d.%d.%d.%d" % (r.choice([1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12]), r.randint(1, 9), r.randint(1, 9), r.randint(1, 9))


def _cusip(r):
    body = _s(r, D + UP, 8)
    total = 0
    for i, c in enumerate(body):
        v = int(c) if c.isdigit() else ord(c) - 55
        if i % 2:
            v *= 2
        total += v // 10 + v % 10
    return body + str((10 - total % 10) % 10)


def i_look(r, doc, m):
    q = r.randint
    kind = r.choice([
        "traceparent", "hub_signature", "etag", "nix_store", "ipfs_cid", "ulid", "masked_pan", "docket_no",
        "hts_code", "cusip", "figi", "patent_no", "cpp_scope", "rust_path", "smpte_timecode", "systemd_template",
        "go_module_at", "pem_certificate", "pem_csr", "pem_public", "pem_dh", "k8s_secret_name", "password_file",
        "token_endpoint", "password_min_length", "api_key_header_name", "is_outline", "fy_outline", "te_outline",
        "semver_four_cmake", "vbnet_assembly", "ulid_in_url", "pan_last4", "phone_extension_only", "sha1_commit_trailer",
        "wa_group_invite", "base32_totp_uri_label", "hex_color_table", "mysql_box_version", "latex_eqref",
        "ietf_oid_cpp", "time_with_ms"])
    lead, v, tail = {
        "traceparent": ("traceparent: ", "00-%s-%s-01" % (_s(r, HEX, 32), _s(r, HEX, 16)), "\n"),
        "hub_signature": ("X-Hub-Signature-256: ", "sha256=" + _s(r, HEX, 64), "\n"),
        "etag": ("ETag: \"", _s(r, HEX, 40), "\"\n"),
        "nix_store": ("", "/nix/store/%s-openssl-3.3.2" % _s(r, "0123456789abcdfghijklmnpqrsvwxyz", 32), "/lib\n"),
        "ipfs_cid": ("ipfs cat ", "bafybei" + _s(r, "abcdefghijklmnopqrstuvwxyz234567", 52), "\n"),
        "ulid": ("request ", "01" + _s(r, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24), " finished\n"),
        "masked_pan": ("card: ", "%s******%s" % (_d(r, 6), _d(r, 4)), " approved\n"),
        "docket_no": ("Case No. ", "%d:%02d-cv-%05d" % (q(1, 4), q(18, 26), q(1, 9999)), " (N.D. Cal.)\n"),
        "hts_code": ("HTS ", "%04d.%02d.%02d.%02d" % (q(101, 9706), q(10, 99), q(0, 99), q(0, 99)), " duty free\n"),
        "cusip": ("CUSIP ", _cusip(r), "\n"),
        "figi": ("FIGI: ", "BBG00" + _s(r, "BCDFGHJKLMNPQRSTVWXYZ0123456789", 6) + str(q(0, 9)), "\n"),
        "patent_no": ("See U.S. Pat. No. ", "%d,%03d,%03d" % (q(9, 12), q(0, 999), q(0, 999)), " B2.\n"),
        "cpp_scope": ("auto d = ", "std::chrono::duration_cast<std::chrono::milliseconds>(t1 - t0)", ";\n"),
        "rust_path": ("use ", "std::collections::hash_map::Entry", ";\n"),
        "smpte_timecode": ("TC IN ", "%02d:%02d:%02d:%02d" % (q(0, 23), q(0, 59), q(0, 59), q(0, 24)), " OUT\n"),
        "systemd_template": ("systemctl restart ", r.choice(["openvpn-client@office.service", "wg-quick@wg0.service",
                                                             "getty@tty1.service", "container-getty@1.service"]), "\n"),
        "go_module_at": ("go install ", "golang.org/x/tools/gopls@v0.%d.%d" % (q(10, 19), q(0, 9)), "\n"),
        "pem_certificate": ("", "-----BEGIN CERTIFICATE-----\n" + "\n".join(_pem_lines(r)) + "\n-----END CERTIFICATE-----", "\n"),
        "pem_csr": ("", "-----BEGIN CERTIFICATE REQUEST-----\n" + "\n".join(_pem_lines(r)) + "\n-----END CERTIFICATE REQUEST-----", "\n"),
        "pem_public": ("", "-----BEGIN PUBLIC KEY-----\n" + "\n".join(_pem_lines(r)[:4]) + "\n-----END PUBLIC KEY-----", "\n"),
        "pem_dh": ("", "-----BEGIN DH PARAMETERS-----\n" + "\n".join(_pem_lines(r)[:5]) + "\n-----END DH PARAMETERS-----", "\n"),
        "k8s_secret_name": ("        valueFrom:\n          secretKeyRef:\n            name: ", "db-credentials", "\n            key: password\n"),
        "password_file": ("password_file = ", "/run/secrets/db_password", "\n"),
        "token_endpoint": ("token_endpoint = ", "https://login.example.is/oauth2/v2.0/token", "\n"),
        "password_min_length": ("password_min_length = ", str(q(8, 20)), "\n"),
        "api_key_header_name": ("api_key_header = \"", "X-Api-Key", "\"\n"),
        "is_outline": ("Sjá grein ", _outline(r), " í samningnum.\n"),
        "fy_outline": ("Sjoch paragraaf ", _outline(r), " fan it kontrakt.\n"),
        "te_outline": ("విభాగం ", _outline(r), " చూడండి.\n"),
        "semver_four_cmake": ("project(gate VERSION ", "%d.%d.%d.%d" % (q(1, 9), q(0, 30), q(0, 30), q(0, 300)), " LANGUAGES CXX)\n"),
        "vbnet_assembly": ("<Assembly: AssemblyFileVersion(\"", "%d.%d.%d.%d" % (q(1, 20), q(0, 30), q(0, 9999), q(0, 9999)), "\")>\n"),
        "ulid_in_url": ("GET /v1/orders/", "01" + _s(r, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24), " 200\n"),
        "pan_last4": ("Visa ending in ", _d(r, 4), ", expires 11/29\n"),
        "phone_extension_only": ("ext. ", _d(r, 4), " (internal)\n"),
        "sha1_commit_trailer": ("(cherry picked from commit ", _s(r, HEX, 40), ")\n"),
        "wa_group_invite": ("https://chat.whatsapp.com/", _s(r, AN, 22), "\n"),
        "base32_totp_uri_label": ("otpauth://totp/", "Example:ops", "?issuer=Example&period=30\n"),
        "hex_color_table": ("| primary | ", "#%s" % _s(r, HEX, 6), " |\n"),
        "mysql_box_version": ("| version() | ", "%d.%d.%d-%d" % (q(5, 8), q(0, 4), q(10, 40), q(0, 3)), " |\n"),
        "latex_eqref": ("see equation~\\eqref{", "eq:%d.%d.%d" % (q(1, 9), q(1, 9), q(1, 9)), "}\n"),
        "ietf_oid_cpp": ("constexpr char kOid[] = \"", "2.5.29.%d" % q(14, 37), "\";\n"),
        "time_with_ms": ("elapsed ", "%02d:%02d:%02d.%03d" % (q(0, 23), q(0, 59), q(0, 59), q(0, 999)), "\n"),
    }[kind]
    doc.t(lead)
    doc.look(v, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["\n", "// ----\n", "%% ----\n", "\" ----\n", "<!-- ---- -->\n", "|-\n"]


def heldout9_doc(r, doc, m):
    """One text of the tenth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
