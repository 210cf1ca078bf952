"""The third held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout3`; not run on its own.

A fourth template family, written and committed before any detector
change of the third round, from real-world formats and not from the
detectors' code; only its per-class table is read until the final
measurement. Surroundings that no other family writes: Go, Rust, C#,
PHP, Java properties, Terraform/HCL variants, nginx and haproxy configs,
systemd units, SQL, CSV, Markdown tables, INI, XML, Windows event log
text, RFC 5424 syslog; prose in Italian, Dutch, Polish, Korean, Russian,
Arabic and Hindi; phone numbers of those countries in their own
groupings; the classes named in issue 36 in new surface forms (IPv6 with
an embedded IPv4, cloud secrets after flags and in env entries, `1 (213)
689-1911`, SSNs in tables and spaced, credentials in header code, a bare
`Bearer` in prose); and look-alikes (four-part versions in more syntaxes,
ids under `_id` keys, decimal ids of 16 to 19 digits, parcel tracking
numbers, semver with build metadata, OIDs, MAC addresses, hashes and
digests, Windows SIDs, ICCIDs, ISINs, outline numbers, pagination
cursors, OAuth client ids).

It reuses only the value makers of `detect_corpus.py` (card_number, jwt,
pem, group4, luhn_digit). It is the project's own, like the other three:
a check against fitting their templates, not a figure on foreign data.
"""
import base64
import string

from detect_values import AN, D, HEX, UHEX, UP, _d, _nz, _s, _ssn, _tok, with_check, family_doc


NAMES = ["Marco Rossi", "Giulia Bianchi", "Jan de Vries", "Sanne Jansen", "Katarzyna Nowak", "Piotr Kowalski",
         "김민수", "이서연", "Иван Петров", "Ольга Смирнова", "أحمد حسن", "फ़ातिमा ख़ान", "Priya Sharma"]


def _iban(r):
    """IBANs of countries the other families do not write, with a valid
    check number."""
    country, bban = r.choice([
        ("PL", lambda: _d(r, 24)),
        ("BE", lambda: _d(r, 12)),
        ("AT", lambda: _d(r, 16)),
        ("CH", lambda: _d(r, 17)),
        ("IE", lambda: _s(r, UP, 4) + _d(r, 14)),
        ("SE", lambda: _d(r, 20)),
    ])
    return with_check(country, bban())


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([10, 100, 146, 172, 176, 188, 195, 203, 31, 77]), r.randint(0, 255),
                            r.randint(0, 255), r.randint(1, 254))


def _us(r):
    return "%s%s" % (_nz(r), _d(r, 2)), "%s%s" % (_nz(r), _d(r, 2)), _d(r, 4)


# ------------------------------------------------------------------ items

def i_email(r, doc, m):
    user = r.choice(["marco.rossi", "g.bianchi", "jan.devries", "s.jansen", "k.nowak", "piotr.kowalski",
                     "minsu.kim", "ivan.petrov", "o.smirnova", "a.hassan", "priya.sharma", "helpdesk", "billing-it"])
    host = r.choice(["esempio.it", "voorbeeld.nl", "przyklad.pl", "example.co.kr", "primer.ru", "example.ae",
                     "example.in", "corp.example.org", "mail.example.eu"])
    e = "%s@%s" % (user, host)
    form = r.choice(["go_struct", "rust_mailbox", "cs_mailaddress", "php_array", "java_props", "sql_insert",
                     "csv_row", "md_table", "ini", "xml", "syslog5424", "winevent", "it_prose", "nl_prose",
                     "pl_prose", "ko_prose", "ru_prose", "ar_prose", "hi_prose", "systemd_env", "signed_off"])
    lead, tail = {
        "go_struct": ("\tu := User{Name: \"%s\", Email: \"" % r.choice(NAMES), "\"}\n"),
        "rust_mailbox": ("    let from: Mailbox = \"", "\".parse()?;\n"),
        "cs_mailaddress": ("var to = new MailAddress(\"", "\", \"%s\");\n" % r.choice(NAMES)),
        "php_array": ("    'email' => '", "',\n"),
        "java_props": ("spring.mail.username=", "\n"),
        "sql_insert": ("INSERT INTO customers (id, name, email) VALUES (%d, '%s', '" % (r.randint(1, 99999), r.choice(NAMES)), "');\n"),
        "csv_row": ("%d,%s," % (r.randint(1, 9999), r.choice(NAMES)), ",%s\n" % r.choice(["IT", "NL", "PL", "KR"])),
        "md_table": ("| %s | " % r.choice(NAMES), " | amministratore |\n"),
        "ini": ("[notify]\nrecipient = ", "\n"),
        "xml": ("<Contact>\n  <Email>", "</Email>\n</Contact>\n"),
        "syslog5424": ("<165>1 2026-12-05T10:14:15.003Z mail01 postfix %d - [origin software=\"postfix\"] sender=<" % r.randint(100, 9999),
                       "> status=sent\n"),
        "winevent": ("An account was successfully logged on.\r\n\r\nNew Logon:\r\n\tAccount Name:\t\t", "\r\n\tAccount Domain:\t\tCORP\r\n"),
        "it_prose": ("Per qualsiasi domanda scrivete a ", ", rispondiamo entro due giorni.\n"),
        "nl_prose": ("Mail gerust naar ", " als je vragen hebt.\n"),
        "pl_prose": ("W razie pytań proszę pisać na adres ", ".\n"),
        "ko_prose": ("문의 사항은 ", " 으로 보내 주세요.\n"),
        "ru_prose": ("Пишите на ", ", отвечу в течение дня.\n"),
        "ar_prose": ("للاستفسار راسلنا على ", " شكرا.\n"),
        "hi_prose": ("कृपया ", " पर ईमेल करें।\n"),
        "systemd_env": ("[Service]\nEnvironment=ALERT_EMAIL=", "\n"),
        "signed_off": ("Signed-off-by: %s <" % r.choice(NAMES[:6]), ">\n"),
    }[form]
    doc.t(lead)
    doc.item(e, "email", "n_" + form)
    doc.t(tail)


def i_phone(r, doc, m):
    form = r.choice(["it_roma", "it_mobile", "nl_amsterdam", "nl_mobile", "pl_warszawa", "pl_mobile", "kr_seoul",
                     "kr_mobile", "ru_moscow", "ru_paren", "ae_dubai", "in_mobile", "us_cc_paren_sql",
                     "us_cc_paren_csv", "us_plus_paren_xml", "us_whois", "us_md_table", "us_go",
                     "it_national_ctx", "nl_national_ctx", "pl_national_ctx"])
    a, x, s = _us(r)
    if form == "it_roma":
        lead, p, tail = "Chiamateci al ", "+39 06 %s %s" % (_d(r, 4), _d(r, 4)), " dalle 9 alle 18.\n"
    elif form == "it_mobile":
        lead, p, tail = "cellulare: ", "+39 3%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 4)), "\n"
    elif form == "nl_amsterdam":
        lead, p, tail = "Bel ons op ", "+31 20 %s %s" % (_d(r, 3), _d(r, 4)), ".\n"
    elif form == "nl_mobile":
        lead, p, tail = "mobiel: ", "+31 6 %s" % _d(r, 8), "\n"
    elif form == "pl_warszawa":
        lead, p, tail = "Prosimy dzwonić pod numer ", "+48 22 %s %s %s" % (_d(r, 3), _d(r, 2), _d(r, 2)), ".\n"
    elif form == "pl_mobile":
        lead, p, tail = "tel. kom. ", "+48 %s%s %s %s" % (r.choice("5678"), _d(r, 2), _d(r, 3), _d(r, 3)), "\n"
    elif form == "kr_seoul":
        lead, p, tail = "대표전화: ", "+82 2-%s-%s" % (_d(r, 4), _d(r, 4)), "\n"
    elif form == "kr_mobile":
        lead, p, tail = "휴대폰 ", "+82 10-%s-%s" % (_d(r, 4), _d(r, 4)), " 으로 연락 주세요.\n"
    elif form == "ru_moscow":
        lead, p, tail = "Звоните: ", "+7 495 %s-%s-%s" % (_d(r, 3), _d(r, 2), _d(r, 2)), "\n"
    elif form == "ru_paren":
        lead, p, tail = "телефон ", "+7 (9%s) %s-%s-%s" % (_d(r, 2), _d(r, 3), _d(r, 2), _d(r, 2)), "\n"
    elif form == "ae_dubai":
        lead, p, tail = "هاتف: ", "+971 4 %s %s" % (_d(r, 3), _d(r, 4)), "\n"
    elif form == "in_mobile":
        lead, p, tail = "मोबाइल नंबर ", "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5)), " है।\n"
    elif form == "us_cc_paren_sql":
        lead, p, tail = "INSERT INTO contacts (name, phone) VALUES ('%s', '" % r.choice(NAMES), "1 (%s) %s-%s" % (a, x, s), "');\n"
    elif form == "us_cc_paren_csv":
        lead, p, tail = "%d,%s," % (r.randint(1, 9999), r.choice(NAMES)), "1 (%s) %s-%s" % (a, x, s), ",NY\n"
    elif form == "us_plus_paren_xml":
        lead, p, tail = "<Phone type=\"work\">", "+1 (%s) %s-%s" % (a, x, s), "</Phone>\n"
    elif form == "us_whois":
        lead, p, tail = "Registrant Phone: ", "+1.%s%s%s" % (a, x, s), "\n"
    elif form == "us_md_table":
        lead, p, tail = "| Name | Phone |\n|---|---|\n| %s | " % r.choice(NAMES), "(%s) %s-%s" % (a, x, s), " |\n"
    elif form == "us_go":
        lead, p, tail = "\tPhone: \"", "+1-%s-%s-%s" % (a, x, s), "\",\n"
    elif form == "it_national_ctx":
        lead, p, tail = "Tel. ", "06 %s %s" % (_d(r, 4), _d(r, 4)), "\n"
    elif form == "nl_national_ctx":
        lead, p, tail = "Telefoon: ", "020-%s %s" % (_d(r, 3), _d(r, 4)), "\n"
    else:
        lead, p, tail = "Telefon: ", "22 %s %s %s" % (_d(r, 3), _d(r, 2), _d(r, 2)), "\n"
    doc.t(lead)
    doc.item(p, "phone", "n_" + form)
    doc.t(tail)


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["md_table_row", "md_table_spaced", "spaced_prose", "csv_header", "sql_insert", "xml",
                     "php_array", "go_struct", "cs_prop", "w2_text", "java_props"])
    if form == "md_table_row":
        lead, v, tail = ("| Employee | SSN | State |\n| --- | --- | --- |\n| %s | " % r.choice(NAMES), dashed, " | CA |\n")
    elif form == "md_table_spaced":
        lead, v, tail = ("| Nome | Social Security No. |\n|:--|:--|\n| %s | " % r.choice(NAMES), "%s %s %s" % (a, g, s), " |\n")
    elif form == "spaced_prose":
        lead, v, tail = (r.choice(["my social is ", "it's ", "the number on the card: "]), "%s %s %s" % (a, g, s), ", please keep it private.\n")
    elif form == "csv_header":
        lead, v, tail = ("employee_id,name,ssn,hire_date\n%d,%s," % (r.randint(1000, 9999), r.choice(NAMES)), dashed, ",2024-03-01\n")
    elif form == "sql_insert":
        lead, v, tail = ("INSERT INTO employees (name, ssn) VALUES ('%s', '" % r.choice(NAMES), dashed, "');\n")
    elif form == "xml":
        lead, v, tail = ("<Employee>\n  <SSN>", dashed, "</SSN>\n</Employee>\n")
    elif form == "php_array":
        lead, v, tail = ("    'ssn' => '", dashed, "',\n")
    elif form == "go_struct":
        lead, v, tail = ("\tapplicant := Applicant{SSN: \"", dashed, "\"}\n")
    elif form == "cs_prop":
        lead, v, tail = ("    SocialSecurityNumber = \"", dashed, "\",\n")
    elif form == "w2_text":
        lead, v, tail = ("a Employee's social security number\n", dashed, "\nb Employer identification number (EIN)\n")
    else:
        lead, v, tail = ("applicant.ssn=", a + g + s, "\n")
    doc.t(lead)
    doc.item(v, "us_ssn", "n_" + form)
    doc.t(tail)


def i_card(r, doc, m):
    c, kind = m.card_number(r)
    shown = ("%s %s %s" % (c[:4], c[4:10], c[10:])) if kind == "amex" else m.group4(c, r.choice([" ", "-", ""]))
    form = r.choice(["go_test", "php_array", "cs_prop", "java_props", "sql_insert", "csv_row", "xml", "it_prose",
                     "nl_prose", "pl_prose", "ru_prose", "ko_prose", "md_table"])
    lead, v, tail = {
        "go_test": ("\t{name: \"declined\", card: \"", c, "\"},\n"),
        "php_array": ("    'card_number' => '", shown, "',\n"),
        "cs_prop": ("    CardNumber = \"", shown, "\",\n"),
        "java_props": ("payment.test.pan=", c, "\n"),
        "sql_insert": ("INSERT INTO payments (order_ref, pan) VALUES ('A-%d', '" % r.randint(1, 99999), c, "');\n"),
        "csv_row": ("%s," % r.choice(NAMES), shown, ",12/29\n"),
        "xml": ("<Card><Number>", c, "</Number><Expiry>2029-12</Expiry></Card>\n"),
        "it_prose": ("Ho pagato con la carta ", shown, ", potete controllare?\n"),
        "nl_prose": ("Mijn kaartnummer is ", shown, ".\n"),
        "pl_prose": ("Numer karty: ", shown, "\n"),
        "ru_prose": ("Номер карты ", shown, ", срок до 12/29.\n"),
        "ko_prose": ("카드 번호 ", shown, " 로 결제했습니다.\n"),
        "md_table": ("| Cliente | Carta |\n|---|---|\n| %s | " % r.choice(NAMES), shown, " |\n"),
    }[form]
    doc.t(lead)
    doc.item(v, "credit_card", "n_%s_%s" % (form, kind))
    doc.t(tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = m.group4(i)
    form = r.choice(["it_prose", "nl_prose", "pl_prose", "ru_prose", "go_struct", "cs_prop", "sql", "csv", "php",
                     "ini", "md_table"])
    lead, v, tail = {
        "it_prose": ("Effettuare il bonifico sull'IBAN ", spaced, " entro venerdì.\n"),
        "nl_prose": ("Maak het bedrag over naar rekeningnummer ", spaced, ".\n"),
        "pl_prose": ("Proszę przelać na konto ", spaced, " do końca miesiąca.\n"),
        "ru_prose": ("Реквизиты для перевода: IBAN ", i, "\n"),
        "go_struct": ("\tpayee := Payee{IBAN: \"", i, "\"}\n"),
        "cs_prop": ("    Iban = \"", i, "\",\n"),
        "sql": ("UPDATE vendors SET iban = '", i, "' WHERE id = %d;\n" % r.randint(1, 9999)),
        "csv": ("vendor,iban,currency\n%s," % r.choice(NAMES), i, ",EUR\n"),
        "php": ("    'iban' => '", spaced, "',\n"),
        "ini": ("[payout]\naccount = ", i, "\n"),
        "md_table": ("| Beneficiario | IBAN |\n|---|---|\n| %s | " % r.choice(NAMES), spaced, " |\n"),
    }[form]
    doc.t(lead)
    doc.item(v, "iban", "n_" + form)
    doc.t(tail)


def i_ipv4(r, doc, m):
    ip = _v4(r)
    form = r.choice(["nginx_allow", "nginx_realip", "nginx_upstream", "haproxy_server", "systemd_ipallow",
                     "syslog5424", "winevent", "sql_where", "csv_row", "go_parse", "rust_parse", "cs_parse",
                     "php_server", "tf_cidr", "java_props", "iptables", "ru_prose", "it_prose", "md_table", "xml",
                     "ini"])
    lead, tail = {
        "nginx_allow": ("    allow ", ";\n    deny all;\n"),
        "nginx_realip": ("set_real_ip_from ", ";\nreal_ip_header X-Forwarded-For;\n"),
        "nginx_upstream": ("upstream api {\n    server ", ":8080 max_fails=3;\n}\n"),
        "haproxy_server": ("backend app\n    server app%d " % r.randint(1, 9), ":%d check inter 2s\n" % r.randint(1024, 65535)),
        "systemd_ipallow": ("[Service]\nIPAddressAllow=", "\nIPAddressDeny=any\n"),
        "syslog5424": ("<38>1 2026-12-05T08:01:22.117Z bastion sshd %d - - Failed password for invalid user admin from " % r.randint(100, 99999),
                       " port %d ssh2\n" % r.randint(1024, 65535)),
        "winevent": ("Network Information:\r\n\tWorkstation Name:\tWS-%d\r\n\tSource Network Address:\t" % r.randint(1, 999), "\r\n\tSource Port:\t\t%d\r\n" % r.randint(1024, 65535)),
        "sql_where": ("SELECT count(*) FROM logins WHERE client_ip = '", "' AND ok = false;\n"),
        "csv_row": ("2026-12-05 08:01:22,", ",GET,/api/v1/orders,200\n"),
        "go_parse": ("\taddr := net.ParseIP(\"", "\")\n"),
        "rust_parse": ("    let peer: Ipv4Addr = \"", "\".parse()?;\n"),
        "cs_parse": ("var endpoint = new IPEndPoint(IPAddress.Parse(\"", "\"), 5000);\n"),
        "php_server": ("$_SERVER['REMOTE_ADDR'] = '", "';\n"),
        "tf_cidr": ("  ingress {\n    cidr_blocks = [\"", "/32\"]\n  }\n"),
        "java_props": ("spring.datasource.host=", "\n"),
        "iptables": ("iptables -A INPUT -s ", " -j DROP\n"),
        "ru_prose": ("Сервер доступен по адресу ", ", порт 22.\n"),
        "it_prose": ("Il server risponde dall'indirizzo ", " ma non via IPv6.\n"),
        "md_table": ("| Host | Address |\n|---|---|\n| db-%d | " % r.randint(1, 9), " |\n"),
        "xml": ("<Server name=\"db\" address=\"", "\" port=\"1433\"/>\n"),
        "ini": ("[database]\nserver = ", "\nport = 5432\n"),
    }[form]
    doc.t(lead)
    doc.item(ip, "ipv4", "n_" + form)
    doc.t(tail)


def i_ipv6(r, doc, m):
    g = lambda: "%x" % r.randint(1, 0xffff)
    form = r.choice(["mapped_go", "mapped_winevent", "mapped_nginx_log", "mapped_cs", "mapped_sql", "nat64",
                     "nginx_listen", "systemd", "full_xml", "zone_id", "haproxy_bind", "csv"])
    if form == "mapped_go":
        lead, ip, tail = "\tremote := \"", "::ffff:" + _v4(r), "\"\n"
    elif form == "mapped_winevent":
        lead, ip, tail = "\tSource Network Address:\t", "::ffff:" + _v4(r), "\r\n"
    elif form == "mapped_nginx_log":
        lead, ip, tail = "", "::ffff:" + _v4(r), " - - [05/Dec/2026:08:01:22 +0000] \"GET /login HTTP/2.0\" 200 512\n"
    elif form == "mapped_cs":
        lead, ip, tail = "var a = IPAddress.Parse(\"", "::ffff:" + _v4(r), "\");\n"
    elif form == "mapped_sql":
        lead, ip, tail = "INSERT INTO audit (peer) VALUES ('", "::FFFF:" + _v4(r), "');\n"
    elif form == "nat64":
        lead, ip, tail = "resolved to ", "64:ff9b::" + _v4(r), " via DNS64\n"
    elif form == "nginx_listen":
        lead, ip, tail = "    listen [", "2001:db8:%s::%s" % (g(), g()), "]:443 ssl http2;\n"
    elif form == "systemd":
        lead, ip, tail = "IPAddressAllow=", "2a02:%s:%s::%s" % (g(), g(), g()), "\n"
    elif form == "full_xml":
        lead, ip, tail = "<Address>", ":".join("%04x" % r.randint(0, 0xffff) for _ in range(8)), "</Address>\n"
    elif form == "zone_id":
        lead, ip, tail = "ping6 ", "fe80::%s:%s:%s:%s" % (g(), g(), g(), g()), "%eth0\n"
    elif form == "haproxy_bind":
        lead, ip, tail = "    server api6 [", "2001:db8:%s:%s::%s" % (g(), g(), g()), "]:8443 check\n"
    else:
        lead, ip, tail = "2026-12-05T08:01:22Z,", "2a01:%s:%s:%s::%s" % (g(), g(), g(), g()), ",POST,/upload\n"
    doc.t(lead)
    doc.item(ip, "ipv6", "n_" + form)
    doc.t(tail)


def i_api_key(r, doc, m):
    aws = lambda: _tok(r, 40, AN + "/+")
    basic = lambda: base64.b64encode(("%s:%s" % (r.choice(["svc-etl", "reporter", "jenkins"]), _tok(r, 14))).encode()).decode()
    form = r.choice([
        "flag_kubectl_token", "flag_vault_token", "flag_docker_password", "aws_cli_profile", "aws_cli_default",
        "k8s_env_value", "compose_env_map", "gha_env_map", "systemd_env", "tf_aws_provider", "tf_variable_default",
        "java_props_secret", "ini_api_secret", "php_define", "cs_xapikey", "cs_auth_header", "go_basic",
        "java_token_hdr", "php_curl_hdr", "rust_bearer_auth", "rust_xapikey", "nginx_proxy_hdr", "haproxy_hdr",
        "bare_bearer_it", "bare_bearer_en", "proxy_auth_basic", "go_ghp", "slack_user_xml", "gitlab_ini",
        "anthropic_cs", "stripe_php", "google_xml", "twilio_env", "sendgrid_env"])
    if form == "flag_kubectl_token":
        lead, v, tail = "kubectl --server=https://k8s.example.com --token=", _tok(r, 40, AN + "._-"), " get pods\n"
    elif form == "flag_vault_token":
        lead, v, tail = "vault kv get -address=https://vault.example.com --token ", "hvs." + _tok(r, 24), " secret/app\n"
    elif form == "flag_docker_password":
        lead, v, tail = "docker login registry.example.com -u ci --password ", _tok(r, 32), "\n"
    elif form == "aws_cli_profile":
        lead, v, tail = "aws configure set aws_secret_access_key ", aws(), " --profile prod\n"
    elif form == "aws_cli_default":
        lead, v, tail = "aws configure set default.aws_secret_access_key ", aws(), "\n"
    elif form == "k8s_env_value":
        lead, v, tail = "        env:\n          - name: PAYMENTS_API_SECRET\n            value: \"", _tok(r, 36), "\"\n"
    elif form == "compose_env_map":
        lead, v, tail = "    environment:\n      API_TOKEN: ", _tok(r, 40), "\n"
    elif form == "gha_env_map":
        lead, v, tail = "env:\n  AWS_SECRET_ACCESS_KEY: ", aws(), "\n"
    elif form == "systemd_env":
        lead, v, tail = "[Service]\nEnvironment=\"SERVICE_TOKEN=", _tok(r, 32), "\"\n"
    elif form == "tf_aws_provider":
        lead, v, tail = "provider \"aws\" {\n  region     = \"eu-south-1\"\n  secret_key = \"", aws(), "\"\n}\n"
    elif form == "tf_variable_default":
        lead, v, tail = "variable \"db_password\" {\n  type    = string\n  default = \"", _tok(r, 24), "\"\n}\n"
    elif form == "java_props_secret":
        lead, v, tail = "app.oauth.client-secret=", _tok(r, 32), "\n"
    elif form == "ini_api_secret":
        lead, v, tail = "[api]\nendpoint = https://api.example.com\napi_secret = ", _tok(r, 32), "\n"
    elif form == "php_define":
        lead, v, tail = "define('API_KEY', '", _tok(r, 32), "');\n"
    elif form == "cs_xapikey":
        lead, v, tail = "client.DefaultRequestHeaders.Add(\"X-Api-Key\", \"", _s(r, HEX, 32), "\");\n"
    elif form == "cs_auth_header":
        lead, v, tail = "client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue(\"Bearer\", \"", _tok(r, 40), "\");\n"
    elif form == "go_basic":
        lead, v, tail = "\treq.Header.Set(\"Authorization\", \"Basic ", basic(), "\")\n"
    elif form == "java_token_hdr":
        lead, v, tail = "conn.setRequestProperty(\"Authorization\", \"Token ", _s(r, HEX, 40), "\");\n"
    elif form == "php_curl_hdr":
        lead, v, tail = "curl_setopt($ch, CURLOPT_HTTPHEADER, ['X-Api-Key: ", _s(r, HEX, 32), "']);\n"
    elif form == "rust_bearer_auth":
        lead, v, tail = "    let resp = client.get(url).bearer_auth(\"", _tok(r, 40), "\").send().await?;\n"
    elif form == "rust_xapikey":
        lead, v, tail = "        .header(\"x-api-key\", \"", _s(r, HEX, 32), "\")\n"
    elif form == "nginx_proxy_hdr":
        lead, v, tail = "    proxy_set_header Authorization \"Bearer ", _tok(r, 40), "\";\n"
    elif form == "haproxy_hdr":
        lead, v, tail = "    http-request set-header X-Api-Key ", _s(r, HEX, 32), "\n"
    elif form == "bare_bearer_it":
        lead, v, tail = "Ho provato con Bearer ", _tok(r, 40), " ma risponde 401.\n"
    elif form == "bare_bearer_en":
        lead, v, tail = "passing Bearer ", _s(r, HEX + string.ascii_lowercase, 40), " in the header works now\n"
    elif form == "proxy_auth_basic":
        lead, v, tail = "CONNECT api.example.com:443 HTTP/1.1\r\nProxy-Authorization: Basic ", basic(), "\r\n\r\n"
    elif form == "go_ghp":
        lead, v, tail = "\tclient := github.NewClient(nil).WithAuthToken(\"", "ghp_" + _tok(r, 36), "\")\n"
    elif form == "slack_user_xml":
        lead, v, tail = "<SlackToken>", "xoxp-%s-%s-%s-%s" % (_d(r, 12), _d(r, 12), _d(r, 13), _s(r, HEX, 32)), "</SlackToken>\n"
    elif form == "gitlab_ini":
        lead, v, tail = "[gitlab]\nprivate_token = ", "glpat-" + _tok(r, 20, AN + "_-"), "\n"
    elif form == "anthropic_cs":
        lead, v, tail = "var client = new AnthropicClient(\"", "sk-ant-api03-" + _tok(r, 93, AN + "_-") + "AA", "\");\n"
    elif form == "stripe_php":
        lead, v, tail = "\\Stripe\\Stripe::setApiKey('", "rk_live_" + _tok(r, 24), "');\n"
    elif form == "google_xml":
        lead, v, tail = "<string name=\"google_maps_key\">", "AIza" + _tok(r, 35, AN + "_-"), "</string>\n"
    elif form == "twilio_env":
        lead, v, tail = "TWILIO_AUTH_TOKEN=", _s(r, HEX, 32), "\n"
    else:
        lead, v, tail = "SENDGRID_API_KEY=", "SG.%s.%s" % (_tok(r, 22, AN + "_-"), _tok(r, 43, AN + "_-")), "\n"
    doc.t(lead)
    doc.item(v, "api_key", "n_" + form)
    doc.t(tail)


def i_jwt(r, doc, m):
    form = r.choice(["go", "cs", "sql", "nginx_log", "xml", "ru_prose", "php", "ini"])
    lead, tail = {
        "go": ("\ttokenString := \"", "\"\n"),
        "cs": ("var handler = new JwtSecurityTokenHandler(); var t = handler.ReadJwtToken(\"", "\");\n"),
        "sql": ("UPDATE sessions SET id_token = '", "' WHERE user_id = %d;\n" % r.randint(1, 99999)),
        "nginx_log": ("HOST - - [05/Dec/2026:08:01:22 +0000] \"GET /callback?access_token=", "&state=xyz HTTP/1.1\" 302 0\n"),
        "xml": ("<AccessToken>", "</AccessToken>\n"),
        "ru_prose": ("Вот мой токен: ", " — он истёк?\n"),
        "php": ("$jwt = '", "';\n"),
        "ini": ("[auth]\nid_token = ", "\n"),
    }[form]
    if lead.startswith("HOST"):
        doc.item(_v4(r), "ipv4", "n_access_log")
        lead = lead[4:]
    doc.t(lead)
    doc.item(m.jwt(r), "jwt", "n_" + form)
    doc.t(tail)


def i_private_key(r, doc, m):
    k, kind = m.pem(r)
    form = r.choice(["go_raw", "rust_raw", "cs_verbatim", "php_heredoc", "tf_heredoc", "xml"])
    lead, tail = {
        "go_raw": ("const testKey = `", "`\n"),
        "rust_raw": ("const KEY: &str = r#\"", "\"#;\n"),
        "cs_verbatim": ("var pem = @\"", "\";\n"),
        "php_heredoc": ("$key = <<<EOT\n", "\nEOT;\n"),
        "tf_heredoc": ("  private_key = <<-EOF\n", "\n  EOF\n"),
        "xml": ("<PrivateKey>", "</PrivateKey>\n"),
    }[form]
    doc.t(lead)
    doc.item(k, "private_key", "n_%s_%s" % (form, kind))
    doc.t(tail)


def i_url(r, doc, m):
    pw = _tok(r, r.randint(10, 22))
    if r.random() < 0.2:
        pw = _tok(r, 8) + r.choice(["%21", "%40", "%23"]) + _tok(r, 6)
    form = r.choice(["sqlalchemy_pg2", "sqlalchemy_mysql", "sqlserver", "smtp", "ftp", "redis_sentinel",
                     "amqps", "java_mongo", "tf_pg_backend", "go_dsn", "php_pgsql", "goproxy", "clickhouse"])
    lead, tail = {
        "sqlalchemy_pg2": ("engine = create_engine(\"postgresql+psycopg2://etl:", "@HOST/warehouse\")\n"),
        "sqlalchemy_mysql": ("DATABASE_URL=mysql+pymysql://app:", "@db.internal:3306/shop\n"),
        "sqlserver": ("\tdsn := \"sqlserver://sa:", "@mssql.internal:1433?database=erp\"\n"),
        "smtp": ("MAILER_DSN=smtp://notify:", "@smtp.example.it:587\n"),
        "ftp": ("lftp ftp://backup:", "@ftp.example.nl/incoming\n"),
        "redis_sentinel": ("cache.url=redis-sentinel://:", "@sentinel-0:26379/mymaster\n"),
        "amqps": ("    amqp_url = \"amqps://worker:", "@mq.example.pl:5671/prod\"\n"),
        "java_mongo": ("spring.data.mongodb.uri=mongodb://reporting:", "@mongo-0.internal:27017/stats\n"),
        "tf_pg_backend": ("terraform {\n  backend \"pg\" {\n    conn_str = \"postgres://terraform:", "@pg.internal/tfstate\"\n  }\n}\n"),
        "go_dsn": ("\tconn, err := pgx.Connect(ctx, \"postgres://api:", "@localhost:5432/api?sslmode=disable\")\n"),
        "php_pgsql": ("    'url' => 'pgsql://laravel:", "@HOST:5432/forge',\n"),
        "goproxy": ("export GOPROXY=https://ci:", "@goproxy.example.com,direct\n"),
        "clickhouse": ("clickhouse://default:", "@ch.internal:9000/logs\n"),
    }[form]
    doc.t(lead)
    doc.item(pw, "url_credentials", "n_" + form)
    if "HOST" in tail:
        # A host given as an address is one too.
        at, rest = tail.split("HOST", 1)
        doc.t(at)
        doc.item(_v4(r), "ipv4", "n_url_host")
        doc.t(rest)
    else:
        doc.t(tail)


# ------------------------------------------------------------ look-alikes

def i_look(r, doc, m):
    q = r.randint
    v4 = lambda: "%d.%d.%d.%d" % (q(0, 20), q(0, 60), q(0, 40), q(0, 255) if r.random() < 0.8 else q(256, 9999))
    kind = r.choice([
        "cs_assembly_version", "agent_version_kv", "go_version_const", "maven_version4", "win_file_version",
        "win_os_build", "java_props_version", "ini_version", "ua_edge", "outline_number", "oid_ldap", "oid_snmp",
        "semver_build_meta", "semver_pre_meta", "decimal_id_json", "decimal_id_sql", "decimal_id_go", "id_key_luhn",
        "ups_tracking", "fedex_tracking", "usps_tracking", "dhl_tracking_pl", "tracking_ru", "mac_colon",
        "mac_dash", "mac_cisco", "docker_digest", "cargo_checksum", "go_sum", "win_sid", "guid_braces",
        "iccid", "isin", "vat_eu", "lei", "kr_business_no", "pl_nip", "invoice_no", "continuation_token",
        "next_cursor", "sync_token", "oauth_client_id", "request_id_hdr", "git_ssh_remote", "npm_scoped",
        "event_record_id", "nl_postcode", "iso_date_dotted", "byte_count", "pid_port"])
    if kind == "cs_assembly_version":
        doc.t("[assembly: AssemblyVersion(\"")
        doc.look(v4(), kind)
        doc.t("\")]\n")
    elif kind == "agent_version_kv":
        doc.t("host=web-%d agent_version=" % q(1, 99))
        doc.look(v4(), kind)
        doc.t(" status=ok\n")
    elif kind == "go_version_const":
        doc.t("const Version = \"")
        doc.look(v4(), kind)
        doc.t("\"\n")
    elif kind == "maven_version4":
        doc.t("  <artifactId>client</artifactId>\n  <version>")
        doc.look(v4(), kind)
        doc.t("</version>\n")
    elif kind == "win_file_version":
        doc.t("FileVersion:      ")
        doc.look("10.0.%d.%d" % (q(17000, 26000), q(1, 5000)), kind)
        doc.t("\n")
    elif kind == "win_os_build":
        doc.t("OS Version: ")
        doc.look("10.0.%d.%d" % (q(19041, 26100), q(1, 4000)), kind)
        doc.t(" N/A Build %d\n" % q(19041, 26100))
    elif kind == "java_props_version":
        doc.t("app.version=")
        doc.look(v4(), kind)
        doc.t("\n")
    elif kind == "ini_version":
        doc.t("[Setup]\nAppVersion=")
        doc.look(v4(), kind)
        doc.t("\n")
    elif kind == "ua_edge":
        doc.t("User-Agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.0.0 Safari/537.36 Edg/" % q(110, 131))
        doc.look("%d.0.%d.%d" % (q(110, 131), q(1000, 2999), q(1, 150)), kind)
        doc.t("\n")
    elif kind == "outline_number":
        doc.t(r.choice(["Vedi sezione ", "Zie paragraaf ", "См. раздел ", "See clause "]))
        doc.look("%d.%d.%d.%d" % (q(1, 12), q(1, 9), q(1, 9), q(1, 9)), kind)
        doc.t(" del documento.\n")
    elif kind == "oid_ldap":
        doc.t("attributeTypes: ( ")
        doc.look("2.5.4.%d" % q(3, 60), kind)
        doc.t(" NAME 'cn' )\n")
    elif kind == "oid_snmp":
        doc.t("snmpget -v2c -c public host ")
        doc.look("1.3.6.1.4.1.%d.%d.%d" % (q(1, 60000), q(1, 20), q(1, 9)), kind)
        doc.t("\n")
    elif kind == "semver_build_meta":
        doc.t("version = \"")
        doc.look("%d.%d.%d+build.%d%02d%02d" % (q(0, 9), q(0, 30), q(0, 20), q(2024, 2026), q(1, 12), q(1, 28)), kind)
        doc.t("\"\n")
    elif kind == "semver_pre_meta":
        doc.t("Deploying ")
        doc.look("%d.%d.%d-rc.%d+sha.%s" % (q(1, 9), q(0, 30), q(0, 20), q(1, 5), _s(r, HEX, 7)), kind)
        doc.t(" to staging\n")
    elif kind == "decimal_id_json":
        doc.t('{"%s": ' % r.choice(["order_id", "tweet_id", "message_id", "account_id"]))
        doc.look(str(q(1, 9)) + _d(r, q(15, 18)), kind)
        doc.t(', "status": "ok"}\n')
    elif kind == "decimal_id_sql":
        doc.t("SELECT * FROM events WHERE id = ")
        doc.look(str(q(1, 9)) + _d(r, q(15, 18)), kind)
        doc.t(";\n")
    elif kind == "decimal_id_go":
        doc.t("\tconst GuildID int64 = ")
        doc.look(str(q(1, 9)) + _d(r, q(16, 18)), kind)
        doc.t("\n")
    elif kind == "id_key_luhn":
        body = str(q(1, 9)) + _d(r, 14)
        doc.t("customer_id=")
        doc.look(body + m.luhn_digit(body), kind)
        doc.t(" plan=pro\n")
    elif kind == "ups_tracking":
        doc.t("Tracking number: ")
        doc.look("1Z%s%s" % (_s(r, UP + D, 6), _d(r, 10)), kind)
        doc.t("\n")
    elif kind == "fedex_tracking":
        doc.t("FedEx tracking ")
        doc.look("%s %s %s" % (_d(r, 4), _d(r, 4), _d(r, 4)), kind)
        doc.t(" — consegna prevista domani.\n")
    elif kind == "usps_tracking":
        doc.t("USPS Tracking #: ")
        doc.look("9400 %s %s %s %s %s" % (_d(r, 4), _d(r, 4), _d(r, 4), _d(r, 4), _d(r, 2)), kind)
        doc.t("\n")
    elif kind == "dhl_tracking_pl":
        doc.t("Numer przesyłki DHL: ")
        doc.look(_d(r, 10), kind)
        doc.t("\n")
    elif kind == "tracking_ru":
        doc.t("Трек-номер: ")
        doc.look("RA%sRU" % _d(r, 9), kind)
        doc.t("\n")
    elif kind == "mac_colon":
        doc.t("link/ether ")
        doc.look(":".join(_s(r, HEX, 2) for _ in range(6)), kind)
        doc.t(" brd ff:ff:ff:ff:ff:ff\n")
    elif kind == "mac_dash":
        doc.t("Physical Address. . . . . . . . . : ")
        doc.look("-".join(_s(r, UHEX, 2) for _ in range(6)), kind)
        doc.t("\n")
    elif kind == "mac_cisco":
        doc.t("  %d    " % q(1, 4094))
        doc.look(".".join(_s(r, HEX, 4) for _ in range(3)), kind)
        doc.t("    DYNAMIC     Gi1/0/%d\n" % q(1, 48))
    elif kind == "docker_digest":
        doc.t("image: registry.example.com/api@sha256:")
        doc.look(_s(r, HEX, 64), kind)
        doc.t("\n")
    elif kind == "cargo_checksum":
        doc.t("[[package]]\nname = \"serde\"\nversion = \"1.0.%d\"\nchecksum = \"" % q(100, 230))
        doc.look(_s(r, HEX, 64), kind)
        doc.t("\"\n")
    elif kind == "go_sum":
        doc.t("golang.org/x/net v0.%d.0 h1:" % q(1, 40))
        doc.look(base64.b64encode(bytes(q(0, 255) for _ in range(32))).decode(), kind)
        doc.t("\n")
    elif kind == "win_sid":
        doc.t("\tSecurity ID:\t\t")
        doc.look("S-1-5-21-%d-%d-%d-%d" % (q(10 ** 9, 4 * 10 ** 9), q(10 ** 9, 4 * 10 ** 9), q(10 ** 7, 4 * 10 ** 9), q(1000, 9999)), kind)
        doc.t("\r\n")
    elif kind == "guid_braces":
        doc.t("ProjectGuid = \"{")
        doc.look("%s-%s-%s-%s-%s" % (_s(r, UHEX, 8), _s(r, UHEX, 4), _s(r, UHEX, 4), _s(r, UHEX, 4), _s(r, UHEX, 12)), kind)
        doc.t("}\"\n")
    elif kind == "iccid":
        body = "8944" + _d(r, 14)
        doc.t("ICCID: ")
        doc.look(body + m.luhn_digit(body), kind)
        doc.t("\n")
    elif kind == "isin":
        doc.t("ISIN ")
        doc.look(r.choice(["US", "IT", "NL", "DE"]) + _s(r, UP + D, 9) + _d(r, 1), kind)
        doc.t(" quotato a Milano\n")
    elif kind == "vat_eu":
        doc.t(r.choice(["Partita IVA: IT", "BTW-nummer: NL", "NIP UE: PL"]))
        doc.look(_d(r, 11) if r.random() < 0.5 else _d(r, 9) + "B01", kind)
        doc.t("\n")
    elif kind == "lei":
        doc.t("LEI: ")
        doc.look(_d(r, 4) + "00" + _s(r, UP + D, 12) + _d(r, 2), kind)
        doc.t("\n")
    elif kind == "kr_business_no":
        doc.t("사업자등록번호: ")
        doc.look("%s-%s-%s" % (_d(r, 3), _d(r, 2), _d(r, 5)), kind)
        doc.t("\n")
    elif kind == "pl_nip":
        doc.t("NIP: ")
        doc.look("%s-%s-%s-%s" % (_d(r, 3), _d(r, 3), _d(r, 2), _d(r, 2)), kind)
        doc.t("\n")
    elif kind == "invoice_no":
        doc.t("Fattura n. ")
        doc.look("%d/%s/%s" % (q(2024, 2026), _d(r, 3), _d(r, 4)), kind)
        doc.t("\n")
    elif kind == "continuation_token":
        doc.t('{"value": [], "continuationToken": "')
        doc.look(_tok(r, 32), kind)
        doc.t('"}\n')
    elif kind == "next_cursor":
        doc.t('"response_metadata": {"next_cursor": "')
        doc.look(_tok(r, 24) + "=", kind)
        doc.t('"}\n')
    elif kind == "sync_token":
        doc.t("\tSyncToken: \"")
        doc.look(_tok(r, 28), kind)
        doc.t("\",\n")
    elif kind == "oauth_client_id":
        doc.t("oauth.client_id=")
        doc.look(_s(r, HEX, 32), kind)
        doc.t("\n")
    elif kind == "request_id_hdr":
        doc.t("x-amz-request-id: ")
        doc.look(_s(r, UP + D, 16), kind)
        doc.t("\n")
    elif kind == "git_ssh_remote":
        doc.t("git remote add origin ")
        doc.look("git@gitlab.example.com:team/%s.git" % r.choice(["api", "web", "infra"]), kind)
        doc.t("\n")
    elif kind == "npm_scoped":
        doc.t("npm install ")
        doc.look("@acme/%s@%d.%d.%d" % (r.choice(["ui", "core", "sdk"]), q(0, 9), q(0, 30), q(0, 20)), kind)
        doc.t("\n")
    elif kind == "event_record_id":
        doc.t("<EventRecordID>")
        doc.look(str(q(10 ** 6, 10 ** 10)), kind)
        doc.t("</EventRecordID>\n")
    elif kind == "nl_postcode":
        doc.t("Adres: Keizersgracht %d, " % q(1, 800))
        doc.look("%d %s" % (q(1000, 9999), _s(r, UP, 2)), kind)
        doc.t(" Amsterdam\n")
    elif kind == "iso_date_dotted":
        doc.t("Data: ")
        doc.look("%02d.%02d.%d" % (q(1, 28), q(1, 12), q(2020, 2026)), kind)
        doc.t("\n")
    elif kind == "byte_count":
        doc.t("Received ")
        doc.look("%d %03d %03d" % (q(1, 999), q(0, 999), q(0, 999)), kind)
        doc.t(" bytes\n")
    else:
        doc.t("pid=%d port=" % q(100, 99999))
        doc.look(str(q(1024, 65535)), kind)
        doc.t("\n")


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["-- \n", "; ---\n", "\n", "# end\n", "<!-- -->\n", "—\n"]


def heldout3_doc(r, doc, m):
    """One text of the fourth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
