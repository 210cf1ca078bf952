"""The second held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout2`; not run on its own.

A third template family, written before any detector change of this
round and not read per form while tuning (only the per-class summary is
looked at): languages of code and config that neither other family
writes (Python, JS/TS, Ruby, Kotlin, Swift, Dockerfile, Helm values,
GitHub Actions, Ansible, .npmrc/.pypirc, docker config.json, curl command
lines, raw HTTP requests, email headers), log formats (logfmt, Apache
combined, journald, JSON logs), prose in French, German, Spanish,
Portuguese, Japanese and Chinese around the values, international phone
numbers in their countries' own groupings, and look-alikes (four-part
versions in other syntaxes, image tags, Kubernetes resource versions,
UUIDs, git SHAs, ISBNs, order numbers, timestamps, coordinates, build
numbers, hashes under checksum keys, IMEIs, snowflake ids in new places,
non-secret values under `token`/`secret`-like keys). It reuses only the
value makers of `detect_corpus.py` (card_number, iban, jwt, pem, group4).
It is still written by the project: read its figures as a check against
over-fitting the other two families, not as a figure on foreign data.
"""
import base64
import string

from detect_values import AN, D, HEX, _d, _nz, _ssn, family_doc


def _hex(r, n):
    return "".join(r.choice(HEX) for _ in range(n))


def _tok(r, n, alphabet=AN):
    """A random token holding every kind of character (digit, capital,
    small letter) its alphabet has."""
    kinds = [k for k in (str.isdigit, str.isupper, str.islower) if any(k(c) for c in alphabet)]
    while True:
        t = "".join(r.choice(alphabet) for _ in range(n))
        if all(any(k(c) for c in t) for k in kinds):
            return t


PEOPLE = ["Jean Dupont", "Hans Weber", "Lucía Fernández", "João Pereira", "山田太郎", "王芳", "Chloé Martin",
          "Klaus Fischer", "Beatriz Costa", "佐藤花子"]


# ------------------------------------------------------------------ items

def i_email(r, doc, m):
    user = r.choice(["jean.dupont", "h.weber", "lucia.fdz", "joao_pereira", "yamada", "wang.fang", "support",
                     "noreply+ci", "c.martin42"])
    host = r.choice(["exemple.fr", "beispiel.de", "ejemplo.es", "exemplo.pt", "example.jp", "example.cn",
                     "mail.example.com", "users.noreply.example.com"])
    e = "%s@%s" % (user, host)
    form = r.choice(["mail_from", "mail_to_list", "py_dict", "ts_obj", "ruby_mailer", "kotlin", "logfmt",
                     "json_log", "fr_prose", "de_prose", "ja_prose", "zh_prose", "gitconfig", "npmrc"])
    if form == "mail_from":
        doc.t("From: \"%s\" <" % r.choice(PEOPLE))
        doc.item(e, "email", "m_mail_from")
        doc.t(">\nSubject: Re: facture\n")
    elif form == "mail_to_list":
        doc.t("To: ")
        doc.item(e, "email", "m_mail_to_list")
        doc.t(", ")
        e2 = "%s@%s" % (r.choice(["ops", "finance", "m.rossi"]), r.choice(["example.it", "example.net"]))
        doc.item(e2, "email", "m_mail_to_list")
        doc.t("\n")
    elif form == "py_dict":
        doc.t("    user = {\"name\": \"%s\", \"email\": '" % r.choice(PEOPLE))
        doc.item(e, "email", "m_py_dict")
        doc.t("'}\n")
    elif form == "ts_obj":
        doc.t("const owner: Owner = { email: `")
        doc.item(e, "email", "m_ts_obj")
        doc.t("`, role: 'admin' };\n")
    elif form == "ruby_mailer":
        doc.t("    mail(to: \"")
        doc.item(e, "email", "m_ruby_mailer")
        doc.t("\", subject: t('.subject'))\n")
    elif form == "kotlin":
        doc.t("val contact = Contact(email = \"")
        doc.item(e, "email", "m_kotlin")
        doc.t("\")\n")
    elif form == "logfmt":
        doc.t("level=info msg=\"login ok\" user=")
        doc.item(e, "email", "m_logfmt")
        doc.t(" dur=%dms\n" % r.randint(1, 900))
    elif form == "json_log":
        doc.t('{"level":"info","ts":%d.%03d,"user.email":"' % (r.randint(1_700_000_000, 1_790_000_000), r.randint(0, 999)))
        doc.item(e, "email", "m_json_log")
        doc.t('","msg":"password reset sent"}\n')
    elif form == "fr_prose":
        doc.t("Pour toute question, écrivez à ")
        doc.item(e, "email", "m_fr_prose")
        doc.t(" ou passez à l'accueil.\n")
    elif form == "de_prose":
        doc.t("Bei Rückfragen erreichen Sie mich unter ")
        doc.item(e, "email", "m_de_prose")
        doc.t(".\n")
    elif form == "ja_prose":
        doc.t("メールアドレス：")
        doc.item(e, "email", "m_ja_prose")
        doc.t("までご連絡ください。\n")
    elif form == "zh_prose":
        doc.t("请发送邮件至 ")
        doc.item(e, "email", "m_zh_prose")
        doc.t(" 谢谢。\n")
    elif form == "gitconfig":
        doc.t("[user]\n\tname = %s\n\temail = " % r.choice(PEOPLE))
        doc.item(e, "email", "m_gitconfig")
        doc.t("\n")
    else:
        doc.t("email=")
        doc.item(e, "email", "m_npmrc")
        doc.t("\nalways-auth=true\n")


def i_phone(r, doc, m):
    form = r.choice(["uk_london", "de_berlin", "fr_paris", "es_madrid", "pt_lisboa", "cn_beijing", "jp_tokyo",
                     "us_swift", "it_milano", "ch_zurich", "tel_link", "json_log", "py_kw", "mx_cel",
                     "de_national_ctx", "fr_national_ctx"])
    if form == "uk_london":
        doc.t("Phone: ")
        doc.item("+44 20 %s %s" % (_d(r, 4), _d(r, 4)), "phone", "m_uk_london")
        doc.t("\n")
    elif form == "de_berlin":
        doc.t("Rufen Sie uns an unter ")
        doc.item("+49 30 %s" % _d(r, r.choice([6, 7, 8])), "phone", "m_de_berlin")
        doc.t(" (werktags).\n")
    elif form == "fr_paris":
        doc.t("Appelez-nous au ")
        doc.item("+33 1 %s %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2), _d(r, 2)), "phone", "m_fr_paris")
        doc.t(" du lundi au vendredi.\n")
    elif form == "es_madrid":
        doc.t("Llámenos al ")
        doc.item("+34 91%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)), "phone", "m_es_madrid")
        doc.t(" o escríbanos.\n")
    elif form == "pt_lisboa":
        doc.t("Ligue para ")
        doc.item("+351 21 %s %s" % (_d(r, 3), _d(r, 4)), "phone", "m_pt_lisboa")
        doc.t(" para marcar.\n")
    elif form == "cn_beijing":
        doc.t("联系电话：")
        doc.item("+86 10 %s %s" % (_d(r, 4), _d(r, 4)), "phone", "m_cn_beijing")
        doc.t("\n")
    elif form == "jp_tokyo":
        doc.t("お問い合わせ：")
        doc.item("+81 3-%s-%s" % (_d(r, 4), _d(r, 4)), "phone", "m_jp_tokyo")
        doc.t("（平日）\n")
    elif form == "us_swift":
        doc.t("let support = URL(string: \"tel://")
        doc.item("+1%s%s%s%s%s" % (_nz(r), _d(r, 2), _nz(r), _d(r, 2), _d(r, 4)), "phone", "m_us_swift")
        doc.t("\")!\n")
    elif form == "it_milano":
        doc.t("Tel. ")
        doc.item("+39 02 %s %s" % (_d(r, 4), _d(r, 4)), "phone", "m_it_milano")
        doc.t("\n")
    elif form == "ch_zurich":
        doc.t("Telefon ")
        doc.item("+41 44 %s %s %s" % (_d(r, 3), _d(r, 2), _d(r, 2)), "phone", "m_ch_zurich")
        doc.t("\n")
    elif form == "tel_link":
        doc.t('<a href="tel:')
        p = "+44%s" % _d(r, 10)
        doc.item(p, "phone", "m_tel_link")
        doc.t('">Call us</a>\n')
    elif form == "json_log":
        doc.t('{"level":"warn","msg":"sms failed","to":"')
        doc.item("+%s %s %s" % (r.choice(["44 7700", "49 151", "33 6"]), _d(r, 3), _d(r, 4)), "phone", "m_json_log")
        doc.t('"}\n')
    elif form == "py_kw":
        doc.t("    send_sms(to=\"")
        doc.item("+1 %s%s-%s%s-%s" % (_nz(r), _d(r, 2), _nz(r), _d(r, 2), _d(r, 4)), "phone", "m_py_kw")
        doc.t("\", body=msg)\n")
    elif form == "mx_cel":
        doc.t("Celular: ")
        doc.item("+52 55 %s %s" % (_d(r, 4), _d(r, 4)), "phone", "m_mx_cel")
        doc.t("\n")
    elif form == "de_national_ctx":
        doc.t("Telefon: ")
        doc.item("0%s %s" % (r.choice(["30", "89", "40", "69"]), _d(r, 7)), "phone", "m_de_national_ctx")
        doc.t("\n")
    else:
        doc.t("Téléphone : ")
        doc.item("0%s %s %s %s %s" % (r.choice("12345"), _d(r, 2), _d(r, 2), _d(r, 2), _d(r, 2)), "phone", "m_fr_national_ctx")
        doc.t("\n")


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    form = r.choice(["py_dict", "logfmt", "json_log", "es_prose", "ruby_hash", "http_form", "ts_obj"])
    dashed = "%s-%s-%s" % (a, g, s)
    if form == "py_dict":
        doc.t("    applicant = {\"name\": \"%s\", \"ssn\": \"" % r.choice(PEOPLE))
        doc.item(dashed, "us_ssn", "m_py_dict")
        doc.t("\"}\n")
    elif form == "logfmt":
        doc.t("level=debug msg=\"kyc check\" ssn=")
        doc.item(dashed, "us_ssn", "m_logfmt")
        doc.t(" result=pass\n")
    elif form == "json_log":
        doc.t('{"msg":"w2 import","employee":{"ssn":"')
        doc.item(dashed, "us_ssn", "m_json_log")
        doc.t('"}}\n')
    elif form == "es_prose":
        doc.t("Mi número de Seguro Social (SSN) es ")
        doc.item(dashed, "us_ssn", "m_es_prose")
        doc.t(".\n")
    elif form == "ruby_hash":
        doc.t("  { name: '%s', ssn: '" % r.choice(PEOPLE))
        doc.item(dashed, "us_ssn", "m_ruby_hash")
        doc.t("' },\n")
    elif form == "http_form":
        doc.t("POST /apply HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\nname=x&ssn=")
        doc.item(a + g + s, "us_ssn", "m_http_form")
        doc.t("&dob=1990-01-01\n")
    else:
        doc.t("const taxpayer = { ssn: \"")
        doc.item(dashed, "us_ssn", "m_ts_obj")
        doc.t("\" };\n")


def i_card(r, doc, m):
    c, kind = m.card_number(r)
    if kind == "amex":
        shown = "%s %s %s" % (c[:4], c[4:10], c[10:])
    else:
        shown = m.group4(c, r.choice([" ", "-", ""]))
    form = r.choice(["py_test", "curl_stripe", "kotlin", "swift", "json_log", "fr_prose", "es_prose", "ja_prose",
                     "logfmt", "http_json"])
    if form == "py_test":
        doc.t("    charge(card_number=\"")
        doc.item(shown, "credit_card", "m_py_" + kind)
        doc.t("\", exp=\"12/29\")\n")
    elif form == "curl_stripe":
        doc.t("curl https://api.example.com/v1/tokens -d \"card[number]=")
        doc.item(c, "credit_card", "m_curl_" + kind)
        doc.t("\" -d \"card[cvc]=%s\"\n" % _d(r, 3))
    elif form == "kotlin":
        doc.t("val card = Card(number = \"")
        doc.item(shown, "credit_card", "m_kotlin_" + kind)
        doc.t("\", cvc = \"%s\")\n" % _d(r, 3))
    elif form == "swift":
        doc.t("let params = STPCardParams(); params.number = \"")
        doc.item(c, "credit_card", "m_swift_" + kind)
        doc.t("\"\n")
    elif form == "json_log":
        doc.t('{"level":"error","msg":"declined","payment":{"cardNumber":"')
        doc.item(shown, "credit_card", "m_json_log_" + kind)
        doc.t('"}}\n')
    elif form == "fr_prose":
        doc.t("J'ai payé avec la carte ")
        doc.item(shown, "credit_card", "m_fr_" + kind)
        doc.t(", pouvez-vous vérifier ?\n")
    elif form == "es_prose":
        doc.t("El número de mi tarjeta es ")
        doc.item(shown, "credit_card", "m_es_" + kind)
        doc.t(" y caduca en 2029.\n")
    elif form == "ja_prose":
        doc.t("カード番号：")
        doc.item(shown, "credit_card", "m_ja_" + kind)
        doc.t("\n")
    elif form == "logfmt":
        doc.t("level=warn msg=\"retry charge\" pan=")
        doc.item(c, "credit_card", "m_logfmt_" + kind)
        doc.t(" attempt=2\n")
    else:
        doc.t("POST /v1/pay HTTP/1.1\nContent-Type: application/json\n\n{\"card\": {\"number\": \"")
        doc.item(c, "credit_card", "m_http_json_" + kind)
        doc.t("\"}}\n")


def i_iban(r, doc, m):
    i = m.iban(r)
    form = r.choice(["fr_prose", "es_prose", "pt_prose", "yaml", "py", "logfmt", "json_log"])
    spaced = m.group4(i)
    if form == "fr_prose":
        doc.t("Merci de virer le montant sur l'IBAN ")
        doc.item(spaced, "iban", "m_fr_prose")
        doc.t(" avant la fin du mois.\n")
    elif form == "es_prose":
        doc.t("Cuenta para la transferencia: ")
        doc.item(spaced, "iban", "m_es_prose")
        doc.t("\n")
    elif form == "pt_prose":
        doc.t("Dados bancários — IBAN: ")
        doc.item(i, "iban", "m_pt_prose")
        doc.t("\n")
    elif form == "yaml":
        doc.t("payout:\n  account_holder: %s\n  iban: " % r.choice(PEOPLE))
        doc.item(i, "iban", "m_yaml")
        doc.t("\n")
    elif form == "py":
        doc.t("    Payee(name=\"%s\", iban=\"" % r.choice(PEOPLE))
        doc.item(i, "iban", "m_py")
        doc.t("\")\n")
    elif form == "logfmt":
        doc.t("level=info msg=\"sepa queued\" creditor_iban=")
        doc.item(i, "iban", "m_logfmt")
        doc.t(" amount=%d.%02d\n" % (r.randint(1, 9999), r.randint(0, 99)))
    else:
        doc.t('{"event":"payout.created","destination":"')
        doc.item(i, "iban", "m_json_log")
        doc.t('"}\n')


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([10, 172, 192, 45, 62, 85, 91, 141, 185, 213]), r.randint(0, 255), r.randint(0, 255),
                            r.randint(1, 254))


def i_ipv4(r, doc, m):
    ip = _v4(r)
    form = r.choice(["apache", "journald", "json_log", "logfmt", "ansible_inv", "helm", "dockerfile", "curl",
                     "http_host", "xff_list", "py_const", "fr_prose", "ufw"])
    if form == "apache":
        doc.item(ip, "ipv4", "m_apache")
        doc.t(' - frank [10/Oct/2026:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 "-" "Mozilla/5.0"\n')
    elif form == "journald":
        doc.t("Dec 04 09:14:02 web01 sshd[%d]: Accepted publickey for deploy from " % r.randint(100, 99999))
        doc.item(ip, "ipv4", "m_journald")
        doc.t(" port %d ssh2: ED25519 SHA256:%s\n" % (r.randint(1024, 65535), _tok(r, 20)))
    elif form == "json_log":
        doc.t('{"level":"info","client_ip":"')
        doc.item(ip, "ipv4", "m_json_log")
        doc.t('","status":200,"path":"/healthz"}\n')
    elif form == "logfmt":
        doc.t("time=2026-12-04T09:14:02Z level=info method=GET remote=")
        doc.item(ip, "ipv4", "m_logfmt")
        doc.t(" status=200\n")
    elif form == "ansible_inv":
        doc.t("[web]\nweb%d ansible_host=" % r.randint(1, 9))
        doc.item(ip, "ipv4", "m_ansible_inv")
        doc.t(" ansible_user=ubuntu\n")
    elif form == "helm":
        doc.t("externalDatabase:\n  host: ")
        doc.item(ip, "ipv4", "m_helm")
        doc.t("\n  port: 5432\n")
    elif form == "dockerfile":
        doc.t("ENV DB_HOST=")
        doc.item(ip, "ipv4", "m_dockerfile")
        doc.t(" DB_PORT=5432\n")
    elif form == "curl":
        doc.t("curl -s http://")
        doc.item(ip, "ipv4", "m_curl")
        doc.t(":%d/metrics | head\n" % r.randint(1024, 65535))
    elif form == "http_host":
        doc.t("GET /api/v1/status HTTP/1.1\r\nHost: ")
        doc.item(ip, "ipv4", "m_http_host")
        doc.t(":8080\r\nAccept: */*\r\n")
    elif form == "xff_list":
        doc.t("X-Forwarded-For: ")
        doc.item(ip, "ipv4", "m_xff_list")
        doc.t(", ")
        doc.item(_v4(r), "ipv4", "m_xff_list")
        doc.t("\n")
    elif form == "py_const":
        doc.t("REDIS_HOST = \"")
        doc.item(ip, "ipv4", "m_py_const")
        doc.t("\"\n")
    elif form == "fr_prose":
        doc.t("Le serveur répond depuis l'adresse ")
        doc.item(ip, "ipv4", "m_fr_prose")
        doc.t(" mais pas en IPv6.\n")
    else:
        doc.t("sudo ufw allow from ")
        doc.item(ip, "ipv4", "m_ufw")
        doc.t(" to any port 22\n")


def i_ipv6(r, doc, m):
    g = lambda: "%x" % r.randint(1, 0xffff)
    form = r.choice(["json_log", "curl_bracket", "py_tuple", "ansible", "journald", "logfmt", "mapped_apache"])
    if form == "json_log":
        doc.t('{"remote_addr":"')
        doc.item("2001:db8:%s::%s" % (g(), g()), "ipv6", "m_json_log")
        doc.t('","method":"GET"}\n')
    elif form == "curl_bracket":
        doc.t("curl -g \"http://[")
        doc.item("2001:db8::%s:%s" % (g(), g()), "ipv6", "m_curl_bracket")
        doc.t("]:8080/\"\n")
    elif form == "py_tuple":
        doc.t("    sock.connect((\"")
        doc.item("fe80::%s:%s:%s:%s" % (g(), g(), g(), g()), "ipv6", "m_py_tuple")
        doc.t("\", 443))\n")
    elif form == "ansible":
        doc.t("db1 ansible_host=")
        doc.item("2a01:4f8:%s:%s::%s" % (g(), g(), g()), "ipv6", "m_ansible")
        doc.t("\n")
    elif form == "journald":
        doc.t("Dec 04 09:14:02 mx1 postfix/smtpd[%d]: connect from unknown[" % r.randint(100, 99999))
        doc.item("2001:db8:%s:%s::%s" % (g(), g(), g()), "ipv6", "m_journald")
        doc.t("]\n")
    elif form == "logfmt":
        doc.t("level=info peer=")
        doc.item("2600:1f18:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()), "ipv6", "m_logfmt")
        doc.t(" proto=h2\n")
    else:
        doc.item("::ffff:%s" % _v4(r), "ipv6", "m_mapped_apache")
        doc.t(' - - [04/Dec/2026:09:14:02 +0000] "GET / HTTP/1.1" 301 0\n')


def i_api_key(r, doc, m):
    aws_secret = lambda: _tok(r, 40, AN + "/+")
    form = r.choice(["py_openai", "py_environ", "js_stripe", "ts_anthropic", "ruby_stripe", "gha_env",
                     "docker_auths", "npmrc_gh", "pypirc", "curl_bearer", "curl_xapikey", "http_basic",
                     "kotlin_hdr", "swift_hdr", "helm_secret", "ansible_vault", "dotenv_slack", "py_hf",
                     "boto3", "compose_env"])
    if form == "py_openai":
        doc.t("client = OpenAI(api_key=\"")
        doc.item("sk-proj-" + _tok(r, 48, AN + "_-") + "T3BlbkFJ" + _tok(r, 20), "api_key", "m_py_openai")
        doc.t("\")\n")
    elif form == "py_environ":
        doc.t("os.environ[\"OPENAI_API_KEY\"] = \"")
        doc.item("sk-" + _tok(r, 48), "api_key", "m_py_environ")
        doc.t("\"\n")
    elif form == "js_stripe":
        doc.t("const stripe = require('stripe')('")
        doc.item("sk_live_" + _tok(r, 24), "api_key", "m_js_stripe")
        doc.t("');\n")
    elif form == "ts_anthropic":
        doc.t("const anthropic = new Anthropic({ apiKey: '")
        doc.item("sk-ant-api03-" + _tok(r, 93, AN + "_-") + "AA", "api_key", "m_ts_anthropic")
        doc.t("' });\n")
    elif form == "ruby_stripe":
        doc.t("Stripe.api_key = '")
        doc.item("sk_test_" + _tok(r, 24), "api_key", "m_ruby_stripe")
        doc.t("'\n")
    elif form == "gha_env":
        doc.t("    env:\n      GH_TOKEN: ")
        doc.item("ghp_" + _tok(r, 36), "api_key", "m_gha_env")
        doc.t("\n    steps:\n      - uses: actions/checkout@v4\n")
    elif form == "docker_auths":
        cred = base64.b64encode(("%s:%s" % (r.choice(["deploy", "ci-bot"]), _tok(r, 20))).encode()).decode()
        doc.t('{\n  "auths": {\n    "registry.example.com": {\n      "auth": "')
        doc.item(cred, "api_key", "m_docker_auths")
        doc.t('"\n    }\n  }\n}\n')
    elif form == "npmrc_gh":
        doc.t("@acme:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=")
        doc.item("ghp_" + _tok(r, 36), "api_key", "m_npmrc_gh")
        doc.t("\n")
    elif form == "pypirc":
        doc.t("[pypi]\nusername = __token__\npassword = ")
        doc.item("pypi-AgEIcHlwaS5vcmc" + _tok(r, 60, AN + "_-"), "api_key", "m_pypirc")
        doc.t("\n")
    elif form == "curl_bearer":
        doc.t("curl -H \"Authorization: Bearer ")
        doc.item(_tok(r, 40, AN + "_-"), "api_key", "m_curl_bearer")
        doc.t("\" https://api.example.com/v2/items\n")
    elif form == "curl_xapikey":
        doc.t("curl --header 'X-API-Key: ")
        doc.item(_hex(r, 32), "api_key", "m_curl_xapikey")
        doc.t("' https://api.example.com/\n")
    elif form == "http_basic":
        cred = base64.b64encode(("%s:%s" % (r.choice(["admin", "svc-report"]), _tok(r, 16))).encode()).decode()
        doc.t("GET /admin HTTP/1.1\r\nHost: intranet.example\r\nAuthorization: Basic ")
        doc.item(cred, "api_key", "m_http_basic")
        doc.t("\r\n\r\n")
    elif form == "kotlin_hdr":
        doc.t("    .addHeader(\"Authorization\", \"Bearer ")
        doc.item(_tok(r, 36), "api_key", "m_kotlin_hdr")
        doc.t("\")\n")
    elif form == "swift_hdr":
        doc.t("request.setValue(\"Bearer ")
        doc.item(_tok(r, 36), "api_key", "m_swift_hdr")
        doc.t("\", forHTTPHeaderField: \"Authorization\")\n")
    elif form == "helm_secret":
        doc.t("auth:\n  existingSecret: \"\"\n  apiSecret: ")
        doc.item(_tok(r, 32), "api_key", "m_helm_secret")
        doc.t("\n")
    elif form == "ansible_vault":
        doc.t("deploy_user: app\ndeploy_password: ")
        doc.item(_tok(r, 20, AN + "!#%"), "api_key", "m_ansible_password")
        doc.t("\n")
    elif form == "dotenv_slack":
        doc.t("SLACK_BOT_TOKEN=")
        doc.item("xoxb-%s-%s-%s" % (_d(r, 12), _d(r, 13), _tok(r, 24)), "api_key", "m_dotenv_slack")
        doc.t("\n")
    elif form == "py_hf":
        doc.t("login(token=\"")
        doc.item("hf_" + "".join(r.choice(string.ascii_letters) for _ in range(34)), "api_key", "m_py_hf")
        doc.t("\")\n")
    elif form == "boto3":
        doc.t("s3 = boto3.client('s3', aws_access_key_id='")
        doc.item("AKIA" + "".join(r.choice(string.ascii_uppercase + "234567") for _ in range(16)), "api_key", "m_boto3_id")
        doc.t("', aws_secret_access_key='")
        doc.item(aws_secret(), "api_key", "m_boto3_secret")
        doc.t("')\n")
    else:
        doc.t("    environment:\n      - POSTGRES_PASSWORD=")
        doc.item(_tok(r, 24), "api_key", "m_compose_password")
        doc.t("\n")


def i_jwt(r, doc, m):
    form = r.choice(["curl", "py", "logfmt", "json_log", "cookie"])
    lead, tail = {
        "curl": ("curl -H 'Authorization: Bearer ", "' https://api.example.com/me\n"),
        "py": ("    token = \"", "\"\n"),
        "logfmt": ("level=debug msg=\"auth\" jwt=", " ok=true\n"),
        "json_log": ('{"msg":"refresh","refresh_token":"', '"}\n'),
        "cookie": ("Cookie: theme=dark; auth=", "; lang=fr\n"),
    }[form]
    doc.t(lead)
    doc.item(m.jwt(r), "jwt", "m_" + form)
    doc.t(tail)


def i_private_key(r, doc, m):
    k, kind = m.pem(r)
    form = r.choice(["helm", "py_str", "kotlin_raw", "ansible"])
    if form == "helm":
        doc.t("tls:\n  enabled: true\n  key: |-\n    ")
        doc.item(k.replace("\n", "\n    "), "private_key", "m_helm_" + kind)
        doc.t("\n")
    elif form == "py_str":
        doc.t('KEY = """')
        doc.item(k, "private_key", "m_py_" + kind)
        doc.t('"""\n')
    elif form == "kotlin_raw":
        doc.t('val pem = """\n')
        doc.item(k, "private_key", "m_kotlin_" + kind)
        doc.t('\n""".trimIndent()\n')
    else:
        doc.t("ssh_private_key: |\n  ")
        doc.item(k.replace("\n", "\n  "), "private_key", "m_ansible_" + kind)
        doc.t("\n")


def i_url(r, doc, m):
    pw = _tok(r, r.randint(12, 20))
    form = r.choice(["py_db", "dockerfile_redis", "helm_mongo", "logfmt_amqp", "git_clone", "pip_index"])
    if form == "py_db":
        doc.t("SQLALCHEMY_DATABASE_URI = \"postgresql+psycopg://app:")
        doc.item(pw, "url_credentials", "m_py_db")
        doc.t("@db.internal:5432/app\"\n")
    elif form == "dockerfile_redis":
        doc.t("ENV REDIS_URL=redis://default:")
        doc.item(pw, "url_credentials", "m_dockerfile_redis")
        doc.t("@redis:6379/0\n")
    elif form == "helm_mongo":
        doc.t("mongodb:\n  uri: \"mongodb+srv://admin:")
        doc.item(pw, "url_credentials", "m_helm_mongo")
        doc.t("@cluster0.example.mongodb.net/?retryWrites=true\"\n")
    elif form == "logfmt_amqp":
        doc.t("level=error msg=\"dial failed\" url=amqp://guest:")
        doc.item(pw, "url_credentials", "m_logfmt_amqp")
        doc.t("@rabbit:5672/ err=\"EOF\"\n")
    elif form == "git_clone":
        doc.t("git clone https://oauth2:")
        doc.item(pw, "url_credentials", "m_git_clone")
        doc.t("@gitlab.example.com/team/app.git\n")
    else:
        doc.t("pip install --index-url https://__token__:")
        doc.item(pw, "url_credentials", "m_pip_index")
        doc.t("@pypi.example.com/simple/ mypkg\n")


# ------------------------------------------------------------ look-alikes

def i_look(r, doc, m):
    kind = r.choice(["py_version4", "pkgjson_version4", "gradle_version4", "plist_version4", "docker_from_tag",
                     "helm_tag", "gha_uses", "ansible_version", "k8s_resource_version", "uuid_hex", "git_log",
                     "isbn10", "isbn13_dashed", "order_fr", "order_de", "epoch_s", "epoch_float", "latlon_json",
                     "latlon_prose", "build_number", "sha_checksum", "npm_integrity", "imei", "slack_ts",
                     "discord_mention", "py_channel_id", "page_token", "secret_ref", "token_count", "token_type",
                     "trace_id", "etag", "nuget_version4", "chrome_ua", "de_date"])
    q = r.randint
    v4 = lambda: "%d.%d.%d.%d" % (q(0, 30), q(0, 40), q(0, 30), q(0, 300))
    if kind == "py_version4":
        doc.t("__version__ = \"")
        doc.look(v4(), kind)
        doc.t("\"\n")
    elif kind == "pkgjson_version4":
        doc.t('{\n  "name": "@acme/widgets",\n  "version": "')
        doc.look(v4(), kind)
        doc.t('",\n  "private": true\n}\n')
    elif kind == "gradle_version4":
        doc.t("        versionName \"")
        doc.look(v4(), kind)
        doc.t("\"\n")
    elif kind == "plist_version4":
        doc.t("<key>CFBundleVersion</key>\n<string>")
        doc.look(v4(), kind)
        doc.t("</string>\n")
    elif kind == "nuget_version4":
        doc.t('<PackageReference Include="Newtonsoft.Json" Version="')
        doc.look(v4(), kind)
        doc.t('" />\n')
    elif kind == "docker_from_tag":
        doc.t("FROM %s:" % r.choice(["mcr.microsoft.com/dotnet/runtime", "ghcr.io/acme/base", "eclipse-temurin", "internal/jdk"]))
        doc.look(v4(), kind)
        doc.t(" AS runtime\n")
    elif kind == "helm_tag":
        doc.t("image:\n  repository: ghcr.io/acme/api\n  tag: \"")
        doc.look(v4(), kind)
        doc.t("\"\n  pullPolicy: IfNotPresent\n")
    elif kind == "gha_uses":
        doc.t("      - uses: acme/deploy-action@v")
        doc.look(v4(), kind)
        doc.t("\n")
    elif kind == "ansible_version":
        doc.t("    - name: install agent\n      apt:\n        name: \"datadog-agent=")
        doc.look(v4(), kind)
        doc.t("\"\n")
    elif kind == "chrome_ua":
        doc.t('"user_agent":"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/')
        doc.look("%d.0.%d.%d" % (q(100, 131), q(1000, 6999), q(0, 300)), kind)
        doc.t(' Safari/537.36"\n')
    elif kind == "k8s_resource_version":
        doc.t("  resourceVersion: \"")
        doc.look(_d(r, r.choice([8, 9, 10])), kind)
        doc.t("\"\n  uid: %s-%s-%s-%s-%s\n" % (_hex(r, 8), _hex(r, 4), _hex(r, 4), _hex(r, 4), _hex(r, 12)))
    elif kind == "uuid_hex":
        doc.t("trace=")
        doc.look("%s-%s-%s-%s-%s" % (_hex(r, 8), _hex(r, 4), _hex(r, 4), _hex(r, 4), _hex(r, 12)), kind)
        doc.t("\n")
    elif kind == "git_log":
        doc.look(_hex(r, 7), kind)
        doc.t(" Merge pull request #%d from acme/fix\n" % q(1, 9999))
    elif kind == "isbn10":
        doc.t("ISBN ")
        doc.look("%d-%03d-%05d-%d" % (q(0, 9), q(0, 999), q(0, 99999), q(0, 9)), kind)
        doc.t("\n")
    elif kind == "isbn13_dashed":
        doc.t("ISBN 978-")
        doc.look("%d-%02d-%06d-%d" % (q(0, 9), q(10, 99), q(0, 999999), q(0, 9)), kind)
        doc.t("\n")
    elif kind == "order_fr":
        doc.t("Commande n° ")
        doc.look("%d-%08d" % (q(2020, 2026), q(0, 99999999)), kind)
        doc.t(" expédiée.\n")
    elif kind == "order_de":
        doc.t("Bestellnummer: ")
        doc.look("%s %s %s" % (_d(r, 3), _d(r, 4), _d(r, 4)), kind)
        doc.t("\n")
    elif kind == "epoch_s":
        doc.t('"created": ')
        doc.look(str(q(1_600_000_000, 1_800_000_000)), kind)
        doc.t(",\n")
    elif kind == "epoch_float":
        doc.t("ts=")
        doc.look("%d.%06d" % (q(1_600_000_000, 1_800_000_000), q(0, 999999)), kind)
        doc.t(" level=info\n")
    elif kind == "latlon_json":
        doc.t('{"lat": ')
        doc.look("%d.%06d" % (q(-80, 80), q(0, 999999)), kind)
        doc.t(', "lon": ')
        doc.look("%d.%06d" % (q(-170, 170), q(0, 999999)), kind)
        doc.t("}\n")
    elif kind == "latlon_prose":
        doc.t("Coordonnées GPS : ")
        doc.look("%d.%04d° N, %d.%04d° E" % (q(0, 80), q(0, 9999), q(0, 170), q(0, 9999)), kind)
        doc.t("\n")
    elif kind == "build_number":
        doc.t(r.choice(["Build ", "build #", "CI run "]))
        doc.look("%d%02d%02d.%d" % (q(2024, 2026), q(1, 12), q(1, 28), q(1, 20)), kind)
        doc.t(" passed\n")
    elif kind == "sha_checksum":
        doc.t(r.choice(["sha256: ", "checksum: ", "  sha1: ", "md5sum: "]))
        doc.look(_hex(r, r.choice([32, 40, 64])), kind)
        doc.t("\n")
    elif kind == "npm_integrity":
        doc.t('      "integrity": "sha512-')
        doc.look(base64.b64encode(bytes(q(0, 255) for _ in range(64))).decode(), kind)
        doc.t('",\n')
    elif kind == "imei":
        body = "35" + _d(r, 12)
        doc.t("IMEI: ")
        doc.look(body + m.luhn_digit(body), kind)
        doc.t("\n")
    elif kind == "slack_ts":
        doc.t('{"channel":"C0%s","ts":"' % _tok(r, 8, string.ascii_uppercase + D))
        doc.look("%d.%06d" % (q(1_600_000_000, 1_800_000_000), q(0, 999999)), kind)
        doc.t('"}\n')
    elif kind == "discord_mention":
        doc.t("<@")
        doc.look(str(q(1, 9)) + _d(r, r.choice([16, 17, 18])), kind)
        doc.t("> a rejoint le serveur\n")
    elif kind == "py_channel_id":
        doc.t("CHANNEL_ID = ")
        doc.look(str(q(1, 9)) + _d(r, r.choice([17, 18])), kind)
        doc.t("\n")
    elif kind == "page_token":
        doc.t('{"items": [], "nextPageToken": "')
        doc.look(_tok(r, 24), kind)
        doc.t('"}\n')
    elif kind == "secret_ref":
        doc.t("          valueFrom:\n            secretKeyRef:\n              name: ")
        doc.look(r.choice(["db-credentials", "api-secrets", "app-env-secret"]), kind)
        doc.t("\n              key: password\n")
    elif kind == "token_count":
        doc.t(r.choice(["max_tokens=", "prompt_tokens: ", '"total_tokens": ']))
        doc.look(str(q(1, 128000)), kind)
        doc.t("\n")
    elif kind == "token_type":
        doc.t('{"token_type": "Bearer", "expires_in": ')
        doc.look(str(q(300, 86400)), kind)
        doc.t("}\n")
    elif kind == "trace_id":
        doc.t("traceparent: 00-")
        doc.look(_hex(r, 32), kind)
        doc.t("-%s-01\n" % _hex(r, 16))
    elif kind == "etag":
        doc.t('ETag: W/"')
        doc.look(_hex(r, 24), kind)
        doc.t('"\n')
    else:
        doc.t("Stand: ")
        doc.look("%02d.%02d.%d %02d:%02d" % (q(1, 28), q(1, 12), q(2020, 2026), q(0, 23), q(0, 59)), kind)
        doc.t(" Uhr\n")


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["# TODO\n", "// FIXME\n", "---\n", "\n", "…\n", "以上\n"]


def heldout2_doc(r, doc, m):
    """One text of the third family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
