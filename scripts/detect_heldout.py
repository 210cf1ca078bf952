"""The held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout`; not run on its own.

A second template family, written before the detectors were tuned for
issue 36 and not read per form while tuning: other languages of code
(Go, Java, C#, Rust, PHP, Ruby, shell, Terraform, Kubernetes YAML, INI,
.env), other carriers of data (CSV, Markdown tables, nginx and syslog
lines, vCards, SEPA XML, HTTP requests), other locales, and look-alikes
the tuning split does not write (Windows build numbers, assembly
versions, snowflake ids, carriers' tracking numbers, MAC addresses,
coordinates, ZIP+4 codes). It reuses only the value makers of
`detect_corpus.py` (a valid card, IBAN or JWT is valid whoever writes
it); every sentence, key, flag and layout around a value is its own.
It is still written by the project: read its figures as a check against
over-fitting the tuning split, not as a figure on foreign data.

Since the second round of issue 36 (2026-12-04) this family is a tuning
split: its miss classes were read per form and closed. The held-out
split is now `detect_heldout2.py` (`--split heldout2`).
"""
import base64
import random
import string

D = string.digits


def _d(r, n):
    return "".join(r.choice(D) for _ in range(n))


def _tok(r, n, alphabet=string.ascii_letters + string.digits):
    while True:
        t = "".join(r.choice(alphabet) for _ in range(n))
        if any(c.isdigit() for c in t) and any(c.isalpha() for c in t):
            return t


NAMES = ["Jane Doe", "Carlos Mendes", "Aiko Sato", "Liam O'Brien", "Zainab Yusuf", "Petra Novák",
         "Ravi Shah", "Emma Lindqvist", "Tomás Ortega", "Mei Lin"]
HEX = "0123456789abcdef"


# ------------------------------------------------------------------ items

def h_email(r, doc, m):
    user = r.choice(["j.doe", "carlos.mendes", "aiko", "team-billing", "ops+alerts", "z.yusuf", "petra_n", "ravi.shah99"])
    host = r.choice(["example.org", "mail.example.de", "corp.example.jp", "example.com.au", "uni-example.edu", "example.fr"])
    form = r.choice(["csv", "reply_to", "md_link", "go", "vcard", "git_author"])
    e = "%s@%s" % (user, host)
    if form == "csv":
        doc.t("%s,%d," % (r.choice(NAMES), r.randint(18, 90)))
        doc.item(e, "email", "h_csv")
        doc.t(",active\n")
    elif form == "reply_to":
        doc.t("Reply-To: %s <" % r.choice(NAMES))
        doc.item(e, "email", "h_reply_to")
        doc.t(">\n")
    elif form == "md_link":
        doc.t("Questions? Write to [the team](mailto:")
        doc.item(e, "email", "h_md_link")
        doc.t(").\n")
    elif form == "go":
        doc.t('\tuser := User{Name: "%s", Email: "' % r.choice(NAMES))
        doc.item(e, "email", "h_go")
        doc.t('"}\n')
    elif form == "vcard":
        doc.t("EMAIL;TYPE=work:")
        doc.item(e, "email", "h_vcard")
        doc.t("\n")
    else:
        doc.t("Author: %s <" % r.choice(NAMES))
        doc.item(e, "email", "h_git_author")
        doc.t(">\nDate:   Tue Mar 3 10:12:44 2026 +0100\n")


def h_phone(r, doc, m):
    nz = lambda: r.choice("23456789")
    form = r.choice(["vcard_us", "us_cc_paren", "json_fr", "yaml_us", "de_trunk", "jp", "uk_sms", "csv_intl", "us_cc_dash"])
    if form == "vcard_us":
        doc.t("TEL;TYPE=cell:")
        doc.item("+1-%s%s-%s%s-%s" % (nz(), _d(r, 2), nz(), _d(r, 2), _d(r, 4)), "phone", "h_vcard_us")
        doc.t("\n")
    elif form == "us_cc_paren":
        doc.t(r.choice(["Please call ", "Reach the front desk at ", "Customer hotline: "]))
        doc.item("1 (%s%s) %s%s-%s" % (nz(), _d(r, 2), nz(), _d(r, 2), _d(r, 4)), "phone", "h_us_cc_paren")
        doc.t(r.choice([" after 9am.", " any time.", "\n"]))
    elif form == "us_cc_dash":
        doc.t("Toll-free: ")
        doc.item("1-%s00-%s%s-%s" % (r.choice("8"), nz(), _d(r, 2), _d(r, 4)), "phone", "h_us_cc_dash")
        doc.t("\n")
    elif form == "json_fr":
        doc.t('{"contact": {"telephone": "')
        doc.item("+33 %s %s %s %s %s" % (r.choice("67"), _d(r, 2), _d(r, 2), _d(r, 2), _d(r, 2)), "phone", "h_json_fr")
        doc.t('"}}\n')
    elif form == "yaml_us":
        doc.t("  phone_number: \"")
        doc.item("(%s%s) %s%s-%s" % (nz(), _d(r, 2), nz(), _d(r, 2), _d(r, 4)), "phone", "h_yaml_us")
        doc.t("\"\n")
    elif form == "de_trunk":
        doc.t("Tel.: ")
        doc.item("+49 (0)%s %s" % (r.choice(["89", "30", "211", "69"]), _d(r, 7)), "phone", "h_de_trunk")
        doc.t(" (Mo-Fr)\n")
    elif form == "jp":
        doc.t("連絡先: ")
        doc.item("+81-%s-%s-%s" % (r.choice(["90", "80", "3"]), _d(r, 4), _d(r, 4)), "phone", "h_jp")
        doc.t("\n")
    elif form == "uk_sms":
        doc.t("Text the code to ")
        doc.item("+44 7%s %s" % (_d(r, 3), _d(r, 6)), "phone", "h_uk_sms")
        doc.t(" to confirm.\n")
    else:
        doc.t("%s,%s," % (r.choice(NAMES), r.choice(["NL", "ES", "IT"])))
        cc, n = r.choice([("31", "6%s" % _d(r, 8)), ("34", "6%s" % _d(r, 8)), ("39", "3%s" % _d(r, 9))])
        doc.item("+%s %s" % (cc, n), "phone", "h_csv_intl")
        doc.t("\n")


def _ssn(r):
    while True:
        a = r.randint(1, 899)
        if a != 666:
            return "%03d" % a, "%02d" % r.randint(1, 99), "%04d" % r.randint(1, 9999)


def h_ssn(r, doc, m):
    a, g, s = _ssn(r)
    form = r.choice(["md_table", "md_table_spaced", "csv_header", "prose_spaced", "yaml", "form_field"])
    if form in ("md_table", "md_table_spaced"):
        doc.t("| Employee | %s | Form |\n|---|---|---|\n| %s | " % (r.choice(["SSN", "Social Security No.", "TIN/SSN"]), r.choice(NAMES)))
        doc.item("%s%s%s%s%s" % (a, "-" if form == "md_table" else " ", g, "-" if form == "md_table" else " ", s), "us_ssn", "h_" + form)
        doc.t(" | %s |\n" % r.choice(["W-2", "1099-NEC", "W-4"]))
    elif form == "csv_header":
        doc.t("name,ssn,start_date\n%s," % r.choice(NAMES))
        doc.item("%s-%s-%s" % (a, g, s), "us_ssn", "h_csv_header")
        doc.t(",2024-0%d-1%d\n" % (r.randint(1, 9), r.randint(0, 9)))
    elif form == "prose_spaced":
        doc.t(r.choice(["The applicant wrote ", "On the W-2 it says ", "Her card reads "]))
        doc.item("%s %s %s" % (a, g, s), "us_ssn", "h_prose_spaced")
        doc.t(r.choice([" and signed.", ", please verify.", " (copy attached)."]))
    elif form == "yaml":
        doc.t("employee:\n  social_security_number: ")
        doc.item("%s-%s-%s" % (a, g, s), "us_ssn", "h_yaml")
        doc.t("\n")
    else:
        doc.t('<input name="ssn" value="')
        doc.item("%s%s%s" % (a, g, s), "us_ssn", "h_form_field")
        doc.t('">\n')


def h_card(r, doc, m):
    c, kind = m.card_number(r)
    form = r.choice(["json_key", "form_post", "md_table", "java", "receipt"])
    if kind == "amex":
        shown = "%s %s %s" % (c[:4], c[4:10], c[10:])
    else:
        shown = m.group4(c, r.choice([" ", "-", ""]))
    if form == "json_key":
        doc.t('{"card_number": "')
        doc.item(shown, "credit_card", "h_json_" + kind)
        doc.t('", "exp": "0%d/2%d"}\n' % (r.randint(1, 9), r.randint(6, 9)))
    elif form == "form_post":
        doc.t("POST /checkout cc_number=")
        doc.item(c, "credit_card", "h_form_" + kind)
        doc.t("&cvv=%s\n" % _d(r, 3))
    elif form == "md_table":
        doc.t("| customer | card |\n|---|---|\n| %s | " % r.choice(NAMES))
        doc.item(shown, "credit_card", "h_md_" + kind)
        doc.t(" |\n")
    elif form == "java":
        doc.t('    payment.setPan("')
        doc.item(c, "credit_card", "h_java_" + kind)
        doc.t('");\n')
    else:
        doc.t("Zahlung mit Karte ")
        doc.item(shown, "credit_card", "h_receipt_" + kind)
        doc.t(" erfolgreich.\n")


def h_iban(r, doc, m):
    i = m.iban(r)
    form = r.choice(["sepa_xml", "csv", "de_prose"])
    if form == "sepa_xml":
        doc.t("<CdtrAcct><Id><IBAN>")
        doc.item(i, "iban", "h_sepa_xml")
        doc.t("</IBAN></Id></CdtrAcct>\n")
    elif form == "csv":
        doc.t("%s;" % r.choice(NAMES))
        doc.item(i, "iban", "h_csv")
        doc.t(";EUR\n")
    else:
        doc.t("Bitte überweisen Sie den Betrag auf ")
        doc.item(m.group4(i), "iban", "h_de_prose")
        doc.t(".\n")


def h_ipv4(r, doc, m):
    ip = "%d.%d.%d.%d" % (r.choice([81, 34, 52, 100, 203, 198, 77, 10]), r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))
    form = r.choice(["nginx", "ssh", "x_real_ip", "json_remote", "syslog", "hosts"])
    if form == "nginx":
        doc.item(ip, "ipv4", "h_nginx")
        doc.t(' - - [03/Mar/2026:10:12:44 +0000] "GET /v1/models HTTP/1.1" 200 %d\n' % r.randint(100, 9999))
    elif form == "ssh":
        doc.t("ssh -i ~/.ssh/deploy.pem ubuntu@")
        doc.item(ip, "ipv4", "h_ssh")
        doc.t("\n")
    elif form == "x_real_ip":
        doc.t("X-Real-IP: ")
        doc.item(ip, "ipv4", "h_x_real_ip")
        doc.t("\n")
    elif form == "json_remote":
        doc.t('{"remoteAddress":"')
        doc.item(ip, "ipv4", "h_json_remote")
        doc.t('","port":%d}\n' % r.randint(1024, 65535))
    elif form == "syslog":
        doc.t("Mar  3 10:12:44 gw sshd[%d]: Failed password for root from " % r.randint(100, 99999))
        doc.item(ip, "ipv4", "h_syslog")
        doc.t(" port %d ssh2\n" % r.randint(1024, 65535))
    else:
        doc.item(ip, "ipv4", "h_hosts")
        doc.t("\tdb-primary.internal\n")


def h_ipv6(r, doc, m):
    g = lambda: "%x" % r.randint(1, 0xffff)
    v4 = "%d.%d.%d.%d" % (r.choice([81, 34, 52, 203, 10]), r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))
    form = r.choice(["mapped_log", "mapped_bracket", "nat64", "nginx_v6", "zone", "json_v6"])
    if form == "mapped_log":
        doc.t("accepted connection from ")
        doc.item("::ffff:" + v4, "ipv6", "h_mapped_log")
        doc.t("\n")
    elif form == "mapped_bracket":
        doc.t("client [")
        doc.item("::ffff:" + v4, "ipv6", "h_mapped_bracket")
        doc.t("]:%d closed\n" % r.randint(1024, 65535))
    elif form == "nat64":
        doc.t("peer=")
        doc.item("64:ff9b::" + v4, "ipv6", "h_nat64")
        doc.t(" rtt=%dms\n" % r.randint(1, 300))
    elif form == "nginx_v6":
        doc.item("2001:db8:%s:%s::%s" % (g(), g(), g()), "ipv6", "h_nginx_v6")
        doc.t(' - - [03/Mar/2026:10:12:44 +0000] "POST /v1/chat HTTP/2" 200\n')
    elif form == "zone":
        doc.t("ping6 ")
        doc.item("fe80::%s:%s:%s" % (g(), g(), g()), "ipv6", "h_zone")
        doc.t("%eth0\n")
    else:
        doc.t('{"ip": "')
        doc.item(":".join("%x" % r.randint(0, 0xffff) for _ in range(8)), "ipv6", "h_json_v6")
        doc.t('"}\n')


def h_api_key(r, doc, m):
    aws = lambda: _tok(r, 40, string.ascii_letters + string.digits + "/+")
    hex32 = lambda: "".join(r.choice(HEX) for _ in range(r.choice([32, 40])))
    form = r.choice(["java_basic", "go_xapikey", "csharp_hdr", "js_token_hdr", "prose_bearer", "cli_token",
                     "aws_configure", "k8s_env", "terraform", "npmrc", "export_gh", "php_hdr"])
    if form == "java_basic":
        doc.t('    conn.setRequestProperty("Authorization", "Basic ')
        doc.item(base64.b64encode(("%s:%s" % (r.choice(["svc", "admin", "ci"]), _tok(r, 14))).encode()).decode(), "api_key", "h_java_basic")
        doc.t('");\n')
    elif form == "go_xapikey":
        doc.t('\treq.Header.Set("X-Api-Key", "')
        doc.item(hex32(), "api_key", "h_go_xapikey")
        doc.t('")\n')
    elif form == "csharp_hdr":
        doc.t('client.DefaultRequestHeaders.Add("%s", "' % r.choice(["X-API-KEY", "Api-Key", "X-Auth-Token"]))
        doc.item(_tok(r, 36), "api_key", "h_csharp_hdr")
        doc.t('");\n')
    elif form == "js_token_hdr":
        doc.t("xhr.setRequestHeader('Authorization', 'Token ")
        doc.item(hex32(), "api_key", "h_js_token_hdr")
        doc.t("');\n")
    elif form == "php_hdr":
        doc.t("curl_setopt($ch, CURLOPT_HTTPHEADER, ['Authorization: Bearer ")
        doc.item(_tok(r, 40, string.ascii_lowercase + string.digits), "api_key", "h_php_hdr")
        doc.t("']);\n")
    elif form == "prose_bearer":
        doc.t(r.choice(["I pasted Bearer ", "the request sent Bearer ", "header was Bearer "]))
        doc.item(_tok(r, 32, string.ascii_lowercase + string.digits), "api_key", "h_prose_bearer")
        doc.t(r.choice([" and it failed.", " but got 401.", "\n"]))
    elif form == "cli_token":
        doc.t("$ %s %s " % (r.choice(["deployctl push", "mycli login", "./upload.sh"]), r.choice(["--token", "--api-key", "--secret", "--access-token"])))
        doc.item(r.choice([aws(), hex32(), _tok(r, 32)]), "api_key", "h_cli_token")
        doc.t(" --region eu-west-1\n")
    elif form == "aws_configure":
        doc.t("aws configure set aws_secret_access_key ")
        doc.item(aws(), "api_key", "h_aws_configure")
        doc.t(" --profile prod\n")
    elif form == "k8s_env":
        doc.t("        env:\n          - name: AWS_SECRET_ACCESS_KEY\n            value: ")
        doc.item(aws(), "api_key", "h_k8s_env")
        doc.t("\n")
    elif form == "terraform":
        doc.t('provider "aws" {\n  access_key = "')
        doc.item("AKIA" + "".join(r.choice(string.ascii_uppercase + "234567") for _ in range(16)), "api_key", "h_terraform_akia")
        doc.t('"\n  secret_key = "')
        doc.item(aws(), "api_key", "h_terraform")
        doc.t('"\n}\n')
    elif form == "npmrc":
        doc.t("//registry.npmjs.org/:_authToken=")
        doc.item("npm_" + _tok(r, 36), "api_key", "h_npmrc")
        doc.t("\n")
    else:
        doc.t("export GITHUB_TOKEN=")
        doc.item("ghp_" + _tok(r, 36), "api_key", "h_export_gh")
        doc.t("\n")


def h_jwt(r, doc, m):
    doc.t(r.choice(["Authorization: Bearer ", "Set-Cookie: id_token=", "?access_token="]))
    doc.item(m.jwt(r), "jwt", "h_jwt")
    doc.t("\n")


def h_private_key(r, doc, m):
    k, kind = m.pem(r)
    doc.t('resource "tls_cert" "x" {\n  private_key_pem = <<EOT\n')
    doc.item(k, "private_key", "h_heredoc_" + kind)
    doc.t("\nEOT\n}\n")


def h_url(r, doc, m):
    pw = _tok(r, r.randint(10, 18))
    form = r.choice(["jdbc", "smtp", "ruby"])
    if form == "jdbc":
        doc.t("spring.datasource.url=jdbc:postgresql://app:")
        doc.item(pw, "url_credentials", "h_jdbc")
        doc.t("@")
        doc.item("10.0.%d.%d" % (r.randint(0, 255), r.randint(1, 254)), "ipv4", "h_jdbc_host")
        doc.t(":5432/orders\n")
    elif form == "smtp":
        doc.t("SMTP_URL=smtp://mailer:")
        doc.item(pw, "url_credentials", "h_smtp")
        doc.t("@smtp.example.net:587\n")
    else:
        doc.t('  url: "redis://:')
        doc.item(pw, "url_credentials", "h_ruby_redis")
        doc.t('@cache.internal:6379/1"\n')


# ------------------------------------------------------------ look-alikes

def h_look(r, doc, m):
    kind = r.choice(["assembly_version", "key_version", "win_build", "maven_version", "discord_id", "tweet_url",
                     "json_id", "tracking_fedex", "tracking_kw_dashed", "tracking_dhl", "mac", "coords", "zip4",
                     "git_sha", "uuid", "semver_build", "price_table", "isbn13", "date_de", "ratio", "iso_week",
                     "order_spaced", "k8s_version", "placeholder_hdr", "cli_placeholder"])
    q = lambda a, b: r.randint(a, b)
    if kind == "assembly_version":
        doc.t('[assembly: %s("' % r.choice(["AssemblyVersion", "AssemblyFileVersion"]))
        doc.look("%d.%d.%d.%d" % (q(1, 20), q(0, 20), q(0, 300), q(0, 255)), kind)
        doc.t('")]\n')
    elif kind == "key_version":
        doc.t("%s=" % r.choice(["agent_version", "driverVersion", "fw_ver", "clientVersion", "build_number"]))
        doc.look("%d.%d.%d.%d" % (q(1, 20), q(0, 40), q(0, 20), q(0, 99)), kind)
        doc.t(" status=ok\n")
    elif kind == "win_build":
        doc.t("OS: Microsoft Windows %s " % r.choice(["10", "11", "Server 2022"]))
        doc.look("10.0.%d.%d" % (q(17000, 26000), q(1, 4000)), kind)
        doc.t("\n")
    elif kind == "maven_version":
        doc.t("<version>")
        doc.look("%d.%d.%d.%d" % (q(1, 9), q(0, 9), q(0, 9), q(0, 200)), kind)
        doc.t("</version>\n")
    elif kind == "k8s_version":
        doc.t("  image: registry.example.com/agent:")
        doc.look("%d.%d.%d.%d" % (q(1, 9), q(0, 30), q(0, 9), q(0, 99)), kind)
        doc.t("\n")
    elif kind == "discord_id":
        doc.t(r.choice(["message ", "channel ", "guild ", "user "]) + r.choice(["", "id "]))
        doc.look(str(q(2, 9)) + _d(r, r.choice([16, 17, 18])), kind)
        doc.t(" was deleted\n")
    elif kind == "tweet_url":
        doc.t("https://x.com/someone/status/")
        doc.look(str(q(1, 9)) + _d(r, 18), kind)
        doc.t("\n")
    elif kind == "json_id":
        quote = r.choice(['"', ""])
        doc.t('{"%s": ' % r.choice(["id", "message_id", "orderId", "user_id", "snowflake"]) + quote)
        doc.look(str(q(3, 6)) + _d(r, r.choice([17, 18])), kind)
        doc.t(quote + ', "ok": true}\n')
    elif kind == "tracking_fedex":
        doc.t("FedEx tracking: ")
        doc.look("%s %s %s" % (_d(r, 4), _d(r, 4), _d(r, 4)), kind)
        doc.t("\n")
    elif kind == "tracking_kw_dashed":
        doc.t(r.choice(["Tracking number ", "Sendungsnummer: ", "tracking # ", "Your parcel "]))
        doc.look("%s-%s-%s" % (q(200, 999), q(200, 999), _d(r, 4)), kind)
        doc.t(" is on its way.\n")
    elif kind == "tracking_dhl":
        doc.t("DHL waybill ")
        doc.look("%s %s %s" % (_d(r, 2), _d(r, 4), _d(r, 4)), kind)
        doc.t("\n")
    elif kind == "mac":
        doc.t("ether ")
        doc.look(":".join("%02x" % q(0, 255) for _ in range(6)), kind)
        doc.t(" txqueuelen 1000\n")
    elif kind == "coords":
        doc.t("location: ")
        doc.look("%d.%04d, %d.%04d" % (q(-80, 80), q(0, 9999), q(-170, 170), q(0, 9999)), kind)
        doc.t("\n")
    elif kind == "zip4":
        doc.t("San Francisco, CA ")
        doc.look("%05d-%04d" % (q(10000, 99999), q(1, 9999)), kind)
        doc.t("\n")
    elif kind == "git_sha":
        doc.t("commit ")
        doc.look("".join(r.choice(HEX) for _ in range(40)), kind)
        doc.t("\n")
    elif kind == "uuid":
        doc.t('"request_id": "')
        doc.look("%s-%s-4%s-a%s-%s" % (_d(r, 8), _d(r, 4), _d(r, 3), _d(r, 3), _d(r, 12)), kind)
        doc.t('"\n')
    elif kind == "semver_build":
        doc.t("version: ")
        doc.look("%d.%d.%d+build.%d" % (q(0, 9), q(0, 20), q(0, 20), q(1, 999)), kind)
        doc.t("\n")
    elif kind == "price_table":
        doc.t("| total | ")
        doc.look("%d %03d %03d,%02d €" % (q(1, 99), q(0, 999), q(0, 999), q(0, 99)), kind)
        doc.t(" |\n")
    elif kind == "isbn13":
        doc.t("ISBN-13: ")
        doc.look("978%s" % _d(r, 10), kind)
        doc.t("\n")
    elif kind == "date_de":
        doc.t("am ")
        doc.look("%02d.%02d.%d, %02d:%02d Uhr" % (q(1, 28), q(1, 12), q(2020, 2030), q(0, 23), q(0, 59)), kind)
        doc.t("\n")
    elif kind == "ratio":
        doc.t("aspect ")
        doc.look("%d:%d" % (q(1, 32), q(1, 18)), kind)
        doc.t("\n")
    elif kind == "iso_week":
        doc.t("week ")
        doc.look("%d-W%02d-%d" % (q(2020, 2030), q(1, 52), q(1, 7)), kind)
        doc.t("\n")
    elif kind == "order_spaced":
        doc.t(r.choice(["Order ", "Invoice no. ", "Case "]))
        doc.look("%s %s %s" % (_d(r, 3), _d(r, 2), _d(r, 4)), kind)
        doc.t(" shipped.\n")
    elif kind == "placeholder_hdr":
        doc.t('req.Header.Set("X-Api-Key", "')
        doc.look(r.choice(["<YOUR_API_KEY>", "${API_KEY}", "REPLACE_ME", "xxxxxxxxxxxxxxxx"]), kind)
        doc.t('")\n')
    else:
        doc.t("$ mycli login --token ")
        doc.look(r.choice(["$TOKEN", "<token>", "YOUR_TOKEN_HERE", "${{ secrets.TOKEN }}"]), kind)
        doc.t("\n")


ITEMS = [h_email, h_phone, h_ssn, h_card, h_iban, h_ipv4, h_ipv6, h_api_key, h_api_key, h_jwt,
         h_private_key, h_url]


def heldout_doc(r, doc, m):
    """One held-out text: a few blocks, each an item or a look-alike
    between short lines of filler in the block's own register."""
    for _ in range(r.randint(3, 8)):
        if r.random() < 0.5:
            r.choice(ITEMS)(r, doc, m)
        else:
            h_look(r, doc, m)
        if r.random() < 0.3:
            doc.t(r.choice(["# see runbook\n", "// TODO: rotate\n", "-- \n", "ok\n", "\n"]))
