"""The fourth held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout4`; not run on its own.

A fifth template family, written and committed after the heldout2
classes were closed and before heldout3 was read per form or tuned on
(the third round's second step), from real-world formats and not from
the detectors' code. Surroundings that no other family writes: Perl,
Elixir, Scala, Lua, PowerShell, bash exports and heredocs, TOML,
CloudFormation, Kafka, Redis and log4j lines, HAR files, LDIF,
Prometheus labels, SMTP `Received:` headers, Heroku and Pulumi command
lines, GraphQL variables; prose in Turkish, Swedish, Vietnamese,
Indonesian, Greek, Hebrew, Czech, Ukrainian and Thai; phone numbers of
those countries in their own groupings; and look-alikes (four-part
versions in Perl, PowerShell, registry, manifest and CalVer syntax,
X.509 OIDs, AWS ARNs and account ids, millisecond timestamps, EAN-13
barcodes, Stripe object ids and publishable keys, Twilio account SIDs,
Ethereum addresses, container ids, ZIP+4 codes, Google Analytics ids).

It reuses only the value makers of `detect_corpus.py` (card_number, jwt,
pem, group4, luhn_digit). It is the project's own, like the others.
"""
import base64
from detect_values import AN, D, HEX, UP, _d, _nz, _s, _ssn, _tok, with_check, family_doc


NAMES = ["Ayşe Yılmaz", "Mehmet Demir", "Erik Johansson", "Nguyễn Văn An", "Budi Santoso", "Γιώργος Παπαδόπουλος",
         "דוד כהן", "Jana Nováková", "Олена Коваленко", "สมชาย ใจดี", "Lars Nilsson"]


def _iban(r):
    country, bban = r.choice([
        ("TR", lambda: _d(r, 22)),
        ("GR", lambda: _d(r, 23)),
        ("CZ", lambda: _d(r, 20)),
        ("DK", lambda: _d(r, 14)),
        ("FI", lambda: _d(r, 14)),
        ("PT", lambda: _d(r, 21)),
        ("NO", lambda: _d(r, 11)),
    ])
    return with_check(country, bban())


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([10, 23, 37, 51, 94, 109, 151, 172, 185, 212]), r.randint(0, 255),
                            r.randint(0, 255), r.randint(1, 254))


def _put(doc, lead, value, cls, form, tail):
    doc.t(lead)
    doc.item(value, cls, "q_" + form)
    doc.t(tail)


# ------------------------------------------------------------------ items

def i_email(r, doc, m):
    e = "%s@%s" % (r.choice(["ayse.yilmaz", "m.demir", "erik.j", "an.nguyen", "budi", "g.papadopoulos", "david.cohen",
                             "jana.novakova", "o.kovalenko", "somchai", "noreply", "ops-alerts"]),
                   r.choice(["ornek.com.tr", "exempel.se", "vidu.vn", "contoh.co.id", "paradeigma.gr", "example.co.il",
                             "priklad.cz", "pryklad.ua", "example.co.th", "alerts.example.net"]))
    form = r.choice(["perl", "elixir", "scala", "lua", "powershell", "bash_export", "toml", "ldif", "har",
                     "smtp_received", "graphql", "tr_prose", "sv_prose", "vi_prose", "id_prose", "el_prose",
                     "he_prose", "cs_prose", "uk_prose", "th_prose", "log4j"])
    lead, tail = {
        "perl": ("my %user = (name => 'x', email => '", "');\n"),
        "elixir": ("user = %User{name: \"x\", email: \"", "\"}\n"),
        "scala": ("val owner = Owner(email = \"", "\")\n"),
        "lua": ("local contact = { email = \"", "\" }\n"),
        "powershell": ("Send-MailMessage -To \"", "\" -Subject \"Report\" -SmtpServer smtp.local\n"),
        "bash_export": ("export GIT_AUTHOR_EMAIL=", "\n"),
        "toml": ("[package]\nauthors = [\"%s <" % r.choice(NAMES), ">\"]\n"),
        "ldif": ("dn: uid=user,ou=people,dc=example,dc=com\nmail: ", "\n"),
        "har": ("{\"name\": \"email\", \"value\": \"", "\"},\n"),
        "smtp_received": ("Return-Path: <", ">\nReceived: by mx.example.net; Thu, 5 Dec 2026 08:00:00 +0000\n"),
        "graphql": ("{\"query\": \"mutation Invite($e: String!)\", \"variables\": {\"e\": \"", "\"}}\n"),
        "tr_prose": ("Sorularınız için ", " adresine yazabilirsiniz.\n"),
        "sv_prose": ("Hör av dig till ", " om något är oklart.\n"),
        "vi_prose": ("Vui lòng gửi email tới ", " để được hỗ trợ.\n"),
        "id_prose": ("Silakan kirim email ke ", " untuk bantuan.\n"),
        "el_prose": ("Στείλτε μας email στο ", " για πληροφορίες.\n"),
        "he_prose": ("לפרטים נוספים כתבו אל ", " בבקשה.\n"),
        "cs_prose": ("S dotazy pište na ", ".\n"),
        "uk_prose": ("Пишіть нам на ", ", відповімо швидко.\n"),
        "th_prose": ("ติดต่อทางอีเมล ", " ได้ตลอดเวลา\n"),
        "log4j": ("2026-12-05 08:01:22,117 INFO  [main] c.e.MailService - queued message for ", "\n"),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    form = r.choice(["tr_istanbul", "tr_mobile", "se_stockholm", "se_mobile", "vn_hcm", "id_jakarta", "gr_athens",
                     "il_telaviv", "cz_praha", "ua_kyiv", "th_bangkok", "us_ext", "us_nospace_paren", "us_tel_uri",
                     "us_perl", "us_ps", "tr_national_ctx", "se_national_ctx"])
    a, x, s = "%s%s" % (_nz(r), _d(r, 2)), "%s%s" % (_nz(r), _d(r, 2)), _d(r, 4)
    lead, p, tail = {
        "tr_istanbul": ("Bizi arayın: ", "+90 212 %s %s %s" % (_d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "tr_mobile": ("Cep: ", "+90 5%s %s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "se_stockholm": ("Ring oss på ", "+46 8 %s %s %s" % (_d(r, 3), _d(r, 3), _d(r, 2)), ".\n"),
        "se_mobile": ("Mobil: ", "+46 7%s-%s %s %s" % (r.choice("0236"), _d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "vn_hcm": ("Điện thoại: ", "+84 28 %s %s" % (_d(r, 4), _d(r, 4)), "\n"),
        "id_jakarta": ("Telepon ", "+62 21 %s %s" % (_d(r, 4), _d(r, 4)), "\n"),
        "gr_athens": ("Τηλέφωνο: ", "+30 210 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "il_telaviv": ("טלפון: ", "+972 3-%s-%s" % (_d(r, 3), _d(r, 4)), "\n"),
        "cz_praha": ("Volejte ", "+420 %s %s %s" % (_d(r, 3), _d(r, 3), _d(r, 3)), ".\n"),
        "ua_kyiv": ("Телефон: ", "+380 44 %s %s %s" % (_d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "th_bangkok": ("โทร ", "+66 2 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "us_ext": ("Support line ", "+1 %s-%s-%s" % (a, x, s), " ext. %d\n" % r.randint(10, 999)),
        "us_nospace_paren": ("Phone:(", "%s)%s-%s" % (a, x, s), "\n"),
        "us_tel_uri": ("<a href=\"tel:", "+1-%s-%s-%s" % (a, x, s), "\">call</a>\n"),
        "us_perl": ("my $phone = '", "+1 (%s) %s-%s" % (a, x, s), "';\n"),
        "us_ps": ("$Contact.Phone = \"", "1 (%s) %s-%s" % (a, x, s), "\"\n"),
        "tr_national_ctx": ("Tel: ", "0212 %s %s %s" % (_d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "se_national_ctx": ("Telefon: ", "08-%s %s %s" % (_d(r, 3), _d(r, 3), _d(r, 2)), "\n"),
    }[form]
    if form == "us_nospace_paren":
        lead, p = "Phone:", "(%s)%s-%s" % (a, x, s)
    _put(doc, lead, p, "phone", form, tail)


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["perl", "elixir", "powershell", "toml", "graphql", "har_form", "csv_solid", "prose_spaced",
                     "ldif", "lua", "md_table_last"])
    lead, v, tail = {
        "perl": ("my %emp = (ssn => '", dashed, "');\n"),
        "elixir": ("%Employee{ssn: \"", dashed, "\"}\n"),
        "powershell": ("$ssn = '", dashed, "'\n"),
        "toml": ("[applicant]\nssn = \"", dashed, "\"\n"),
        "graphql": ("{\"variables\": {\"input\": {\"ssn\": \"", dashed, "\"}}}\n"),
        "har_form": ("{\"name\": \"ssn\", \"value\": \"", dashed, "\"}\n"),
        "csv_solid": ("name,ssn,state\n%s," % r.choice(NAMES), a + g + s, ",TX\n"),
        "prose_spaced": ("Social Security number ", "%s %s %s" % (a, g, s), " on file.\n"),
        "ldif": ("dn: uid=e1,ou=hr\nsocialSecurityNumber: ", dashed, "\n"),
        "lua": ("local applicant = { ssn = \"", dashed, "\" }\n"),
        "md_table_last": ("| State | Name | SSN |\n| - | - | - |\n| NV | %s | " % r.choice(NAMES), "%s %s %s" % (a, g, s), " |\n"),
    }[form]
    _put(doc, lead, v, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = m.card_number(r)
    shown = ("%s %s %s" % (c[:4], c[4:10], c[10:])) if kind == "amex" else m.group4(c, r.choice([" ", "-", ""]))
    form = r.choice(["perl", "elixir", "lua", "powershell", "graphql", "har_post", "toml", "tr_prose", "sv_prose",
                     "el_prose", "cs_prose", "vi_prose", "log4j"])
    lead, v, tail = {
        "perl": ("my $card = '", shown, "';\n"),
        "elixir": ("%Card{number: \"", shown, "\", cvc: \"123\"}\n"),
        "lua": ("local card = { number = \"", c, "\" }\n"),
        "powershell": ("$CardNumber = \"", shown, "\"\n"),
        "graphql": ("{\"variables\": {\"card\": {\"number\": \"", c, "\"}}}\n"),
        "har_post": ("\"postData\": {\"text\": \"cardNumber=", c, "&cvv=123\"},\n"),
        "toml": ("[test_card]\nnumber = \"", shown, "\"\n"),
        "tr_prose": ("Kart numaram ", shown, ", kontrol eder misiniz?\n"),
        "sv_prose": ("Kortnummer: ", shown, "\n"),
        "el_prose": ("Αριθμός κάρτας ", shown, "\n"),
        "cs_prose": ("Číslo karty je ", shown, ".\n"),
        "vi_prose": ("Số thẻ của tôi là ", shown, ".\n"),
        "log4j": ("2026-12-05 08:01:22,117 WARN  [pay-3] c.e.Billing - charge failed card=", c, "\n"),
    }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = m.group4(i)
    form = r.choice(["tr_prose", "el_prose", "cs_prose", "sv_prose", "perl", "toml", "elixir", "graphql", "ldif",
                     "powershell"])
    lead, v, tail = {
        "tr_prose": ("Ödemeyi şu IBAN'a yapın: ", spaced, "\n"),
        "el_prose": ("Καταθέστε στο IBAN ", spaced, " έως την Παρασκευή.\n"),
        "cs_prose": ("Platbu pošlete na účet ", spaced, ".\n"),
        "sv_prose": ("Betala till kontonummer ", spaced, " senast fredag.\n"),
        "perl": ("my %payee = (iban => '", i, "');\n"),
        "toml": ("[payout]\niban = \"", i, "\"\n"),
        "elixir": ("%Payee{iban: \"", i, "\"}\n"),
        "graphql": ("{\"variables\": {\"iban\": \"", i, "\"}}\n"),
        "ldif": ("dn: cn=vendor\nbankAccount: ", i, "\n"),
        "powershell": ("$Iban = '", spaced, "'\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip = _v4(r)
    form = r.choice(["prometheus", "kafka_listeners", "redis_bind", "redis_replicaof", "powershell_tnc", "ssh_user",
                     "cfn_cidr", "log4j_from", "smtp_received", "ldif", "har", "lua", "perl", "elixir_str",
                     "tr_prose", "sv_prose", "toml"])
    lead, tail = {
        "prometheus": ("up{job=\"node\", instance=\"", ":9100\"} 1\n"),
        "kafka_listeners": ("advertised.listeners=PLAINTEXT://", ":9092\n"),
        "redis_bind": ("bind ", " -::1\nprotected-mode yes\n"),
        "redis_replicaof": ("replicaof ", " 6379\n"),
        "powershell_tnc": ("Test-NetConnection -ComputerName ", " -Port 443\n"),
        "ssh_user": ("ssh -i ~/.ssh/deploy.pem ubuntu@", "\n"),
        "cfn_cidr": ("      SecurityGroupIngress:\n        - IpProtocol: tcp\n          CidrIp: ", "/32\n"),
        "log4j_from": ("2026-12-05 08:01:22,117 INFO  [nioEventLoop-2] o.e.Server - accepted connection from /", ":51234\n"),
        "smtp_received": ("Received: from mail.example.net (mail.example.net [", "])\n\tby mx.example.com\n"),
        "ldif": ("dn: cn=web01,ou=hosts\nipHostNumber: ", "\n"),
        "har": ("\"serverIPAddress\": \"", "\",\n"),
        "lua": ("local upstream = \"", "\"\n"),
        "perl": ("my $peer = '", "';\n"),
        "elixir_str": ("config :app, db_host: \"", "\"\n"),
        "tr_prose": ("Sunucunun IP adresi ", " olarak görünüyor.\n"),
        "sv_prose": ("Servern svarar från ", " men inte över IPv6.\n"),
        "toml": ("[server]\naddress = \"", "\"\n"),
    }[form]
    _put(doc, lead, ip, "ipv4", form, tail)


def i_ipv6(r, doc, m):
    g = lambda: "%x" % r.randint(1, 0xffff)
    form = r.choice(["prometheus", "smtp_ipv6", "har", "log4j_mapped", "powershell", "ldif", "toml", "nat64_prose"])
    lead, ip, tail = {
        "prometheus": ("up{instance=\"[", "2001:db8:%s::%s" % (g(), g()), "]:9100\"} 1\n"),
        "smtp_ipv6": ("Received: from mx.example.org (mx.example.org [IPv6:", "2a00:%s:%s::%s" % (g(), g(), g()), "])\n"),
        "har": ("\"serverIPAddress\": \"", "2606:%s:%s::%s" % (g(), g(), g()), "\",\n"),
        "log4j_mapped": ("2026-12-05 08:01:22,117 INFO  o.e.Server - accepted connection from /", "::ffff:" + _v4(r), ":51234\n"),
        "powershell": ("Test-Connection -TargetName ", "fe80::%s:%s:%s:%s" % (g(), g(), g(), g()), "\n"),
        "ldif": ("ipHostNumber: ", "2001:db8:%s:%s::%s" % (g(), g(), g()), "\n"),
        "toml": ("listen = \"[", "2a01:%s:%s::%s" % (g(), g(), g()), "]:8443\"\n"),
        "nat64_prose": ("A kérés innen jött: ", "64:ff9b::" + _v4(r), "\n"),
    }[form]
    _put(doc, lead, ip, "ipv6", form, tail)


def i_api_key(r, doc, m):
    aws = lambda: _tok(r, 40, AN + "/+")
    form = r.choice([
        "ps_env_openai", "heroku_stripe", "bash_export_gh", "elixir_config", "lua_api_key", "perl_hdr", "scala_hdr",
        "har_auth", "grpc_metadata", "toml_token", "cfn_noecho", "kafka_jaas", "redis_requirepass",
        "redis_masterauth", "azure_sas", "aws_session_token", "bash_heredoc_aws", "ps_securestring",
        "pulumi_secret", "github_fine_ps", "gitlab_ci_var", "anthropic_bash", "npm_token_env", "slack_bot_lua",
        "bare_bearer_tr", "docker_auth_podman"])
    if form == "ps_env_openai":
        lead, v, tail = "$env:OPENAI_API_KEY = \"", "sk-proj-" + _tok(r, 48, AN + "_-") + "T3BlbkFJ" + _tok(r, 20), "\"\n"
    elif form == "heroku_stripe":
        lead, v, tail = "heroku config:set STRIPE_SECRET_KEY=", "sk_live_" + _tok(r, 24), " -a shop\n"
    elif form == "bash_export_gh":
        lead, v, tail = "export GITHUB_TOKEN=", "ghp_" + _tok(r, 36), "\n"
    elif form == "elixir_config":
        lead, v, tail = "config :app, MyApp.Client, api_key: \"", _tok(r, 32), "\"\n"
    elif form == "lua_api_key":
        lead, v, tail = "local API_KEY = \"", _tok(r, 32), "\"\n"
    elif form == "perl_hdr":
        lead, v, tail = "$ua->default_header('X-API-Key' => '", _s(r, HEX, 32), "');\n"
    elif form == "scala_hdr":
        lead, v, tail = "  .header(\"Authorization\", \"Bearer ", _tok(r, 40), "\")\n"
    elif form == "har_auth":
        lead, v, tail = "{\"name\": \"Authorization\", \"value\": \"Bearer ", _tok(r, 40), "\"},\n"
    elif form == "grpc_metadata":
        lead, v, tail = "grpcurl -H 'authorization: Bearer ", _tok(r, 40, AN + "._-"), "' api.example.com:443 list\n"
    elif form == "toml_token":
        lead, v, tail = "[registries.private]\ntoken = \"", _tok(r, 32), "\"\n"
    elif form == "cfn_noecho":
        lead, v, tail = "  DBPassword:\n    Type: String\n    NoEcho: true\n    Default: ", _tok(r, 20), "\n"
    elif form == "kafka_jaas":
        lead, v, tail = ("sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"app\" password=\"",
                         _tok(r, 20), "\";\n")
    elif form == "redis_requirepass":
        lead, v, tail = "requirepass ", _tok(r, 32), "\n"
    elif form == "redis_masterauth":
        lead, v, tail = "masterauth ", _tok(r, 32), "\n"
    elif form == "azure_sas":
        lead, v, tail = ("https://acct.blob.core.windows.net/c/file.csv?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-31T00:00:00Z&sig=",
                         _tok(r, 43) + "%3D", "\n")
    elif form == "aws_session_token":
        lead, v, tail = "aws_session_token = ", "IQoJb3JpZ2luX2Vj" + _tok(r, 200, AN + "/+"), "\n"
    elif form == "bash_heredoc_aws":
        lead, v, tail = "cat > ~/.aws/credentials <<EOF\n[default]\naws_access_key_id = ", "AKIA" + _s(r, UP + "234567", 16), "\n"
    elif form == "ps_securestring":
        lead, v, tail = "$pw = ConvertTo-SecureString \"", _tok(r, 20), "\" -AsPlainText -Force\n"
    elif form == "pulumi_secret":
        lead, v, tail = "pulumi config set --secret dbPassword ", _tok(r, 24), "\n"
    elif form == "github_fine_ps":
        lead, v, tail = "$headers = @{ Authorization = \"token ", "github_pat_" + _tok(r, 22) + "_" + _tok(r, 59), "\" }\n"
    elif form == "gitlab_ci_var":
        lead, v, tail = "  variables:\n    GITLAB_TOKEN: ", "glpat-" + _tok(r, 20, AN + "_-"), "\n"
    elif form == "anthropic_bash":
        lead, v, tail = "export ANTHROPIC_API_KEY=", "sk-ant-api03-" + _tok(r, 93, AN + "_-") + "AA", "\n"
    elif form == "npm_token_env":
        lead, v, tail = "NPM_TOKEN=", "npm_" + _tok(r, 36), "\n"
    elif form == "slack_bot_lua":
        lead, v, tail = "local token = \"", "xoxb-%s-%s-%s" % (_d(r, 12), _d(r, 13), _tok(r, 24)), "\"\n"
    elif form == "bare_bearer_tr":
        lead, v, tail = "Bearer ", _tok(r, 40), " ile denedim ama 401 dönüyor.\n"
    else:
        cred = base64.b64encode(("%s:%s" % (r.choice(["robot$ci", "svc"]), _tok(r, 24))).encode()).decode()
        lead, v, tail = "{\"auths\": {\"quay.io\": {\"auth\": \"", cred, "\"}}}\n"
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["har_cookie", "perl", "powershell", "graphql_hdr", "grpc", "lua", "toml"])
    lead, tail = {
        "har_cookie": ("{\"name\": \"session\", \"value\": \"", "\"},\n"),
        "perl": ("my $jwt = '", "';\n"),
        "powershell": ("$Token = \"", "\"\n"),
        "graphql_hdr": ("{\"headers\": {\"Authorization\": \"JWT ", "\"}}\n"),
        "grpc": ("metadata: x-jwt-assertion=", "\n"),
        "lua": ("local id_token = \"", "\"\n"),
        "toml": ("[auth]\nid_token = \"", "\"\n"),
    }[form]
    _put(doc, lead, m.jwt(r), "jwt", form, tail)


def i_private_key(r, doc, m):
    k, kind = m.pem(r)
    form = r.choice(["ps_herestring", "elixir_sigil", "toml_multiline", "cfn_block", "bash_heredoc"])
    lead, tail = {
        "ps_herestring": ("$key = @\"\n", "\n\"@\n"),
        "elixir_sigil": ("@key ~S\"\"\"\n", "\n\"\"\"\n"),
        "toml_multiline": ("[tls]\nkey = \"\"\"\n", "\n\"\"\"\n"),
        "cfn_block": ("      PrivateKey: |\n", "\n"),
        "bash_heredoc": ("cat > id_rsa <<'EOF'\n", "\nEOF\n"),
    }[form]
    _put(doc, lead, k, "private_key", "%s_%s" % (form, kind), tail)


def i_url(r, doc, m):
    pw = _tok(r, r.randint(10, 22))
    form = r.choice(["ecto", "redis_nouser", "toml_mongo", "ps_amqp", "git_remote", "nats", "sftp", "jdbc_mysql",
                     "kafka_connect", "perl_dsn_url"])
    lead, tail = {
        "ecto": ("config :app, Repo, url: \"ecto://postgres:", "@db.internal/app_prod\"\n"),
        "redis_nouser": ("REDIS_URL=redis://:", "@cache.internal:6379/1\n"),
        "toml_mongo": ("[database]\nuri = \"mongodb+srv://reader:", "@cluster1.example.net/analytics\"\n"),
        "ps_amqp": ("$env:AMQP_URL = \"amqp://worker:", "@mq.internal:5672/\"\n"),
        "git_remote": ("git remote set-url origin https://deploy:", "@git.example.com/team/app.git\n"),
        "nats": ("nats sub -s nats://app:", "@nats.internal:4222 'orders.>'\n"),
        "sftp": ("sftp://backup:", "@files.example.se/upload\n"),
        "jdbc_mysql": ("jdbc.url=jdbc:mysql://app:", "@mysql.internal:3306/shop\n"),
        "kafka_connect": ("\"connection.url\": \"postgresql://connect:", "@pg.internal:5432/cdc\",\n"),
        "perl_dsn_url": ("my $url = 'https://api:", "@internal.example.com/v1';\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def i_look(r, doc, m):
    q = r.randint
    v4 = lambda: "%d.%d.%d.%d" % (q(0, 20), q(0, 60), q(0, 40), q(0, 255))
    kind = r.choice([
        "perl_version", "ps_module_version", "ps_system_version", "registry_display_version", "manifest_version",
        "calver4", "prometheus_version_label", "os_version_prop", "x509_oid", "asn1_oid", "aws_arn",
        "aws_account_id", "epoch_ms", "ean13", "stripe_customer", "stripe_pk", "twilio_sid", "eth_address",
        "container_id", "zip4", "ga_id", "kafka_offset", "tr_outline", "lua_version", "debian_version",
        "elixir_vsn", "scala_version_sbt", "otp_code", "gr_afm", "se_orgnr", "har_timing", "pulumi_stack_ver"])
    lead, v, tail = {
        "perl_version": ("our $VERSION = '", v4(), "';\n"),
        "ps_module_version": ("@{\n    ModuleVersion = '", v4(), "'\n}\n"),
        "ps_system_version": ("[System.Version]\"", v4(), "\"\n"),
        "registry_display_version": ("\"DisplayVersion\"=\"", v4(), "\"\n"),
        "manifest_version": ("{\n  \"manifest_version\": 3,\n  \"version\": \"", v4(), "\"\n}\n"),
        "calver4": ("Released ", "%d.%d.%d.%d" % (q(2024, 2026), q(1, 12), q(1, 28), q(0, 9)), " to production.\n"),
        "prometheus_version_label": ("build_info{version=\"", v4(), "\", goversion=\"go1.22\"} 1\n"),
        "os_version_prop": ("os.version=", "10.0.%d.%d" % (q(17000, 26000), q(1, 5000)), "\n"),
        "x509_oid": ("            Policy: ", "2.23.140.1.%d" % q(1, 3), "\n"),
        "asn1_oid": ("OBJECT IDENTIFIER ", "1.2.840.%d" % q(10000, 113549), "\n"),
        "aws_arn": ("\"Role\": \"", "arn:aws:iam::%s:role/%s" % (_d(r, 12), r.choice(["deploy", "lambda-exec"])), "\",\n"),
        "aws_account_id": ("AWS_ACCOUNT_ID=", _d(r, 12), "\n"),
        "epoch_ms": ("{\"ts\": ", str(q(1_600_000_000_000, 1_800_000_000_000)), ", \"level\": \"info\"}\n"),
        "ean13": ("Barkod: ", "869" + _d(r, 10), "\n"),
        "stripe_customer": ("\"customer\": \"", "cus_" + _tok(r, 14), "\",\n"),
        "stripe_pk": ("STRIPE_PUBLISHABLE_KEY=", "pk_live_" + _tok(r, 24), "\n"),
        "twilio_sid": ("TWILIO_ACCOUNT_SID=", "AC" + _s(r, HEX, 32), "\n"),
        "eth_address": ("Wallet: ", "0x" + _s(r, HEX, 40), "\n"),
        "container_id": ("docker logs ", _s(r, HEX, 12), " --tail 50\n"),
        "zip4": ("Austin, TX ", "%s-%s" % (_d(r, 5), _d(r, 4)), "\n"),
        "ga_id": ("gtag('config', '", "UA-%s-%d" % (_d(r, 8), q(1, 9)), "');\n"),
        "kafka_offset": ("partition=3 offset=", str(q(10 ** 9, 10 ** 13)), " key=null\n"),
        "tr_outline": ("Bkz. madde ", "%d.%d.%d.%d" % (q(1, 12), q(1, 9), q(1, 9), q(1, 9)), " ve ekleri.\n"),
        "lua_version": ("local VERSION = \"", v4(), "\"\n"),
        "debian_version": ("Package: agent\nVersion: 1:", v4(), "-1\n"),
        "elixir_vsn": ("      version: \"", v4(), "\",\n"),
        "scala_version_sbt": ("ThisBuild / version := \"", v4(), "\"\n"),
        "otp_code": ("Doğrulama kodunuz: ", _d(r, 6), "\n"),
        "gr_afm": ("ΑΦΜ: ", _d(r, 9), "\n"),
        "se_orgnr": ("Org.nr: ", "%s-%s" % (_d(r, 6), _d(r, 4)), "\n"),
        "har_timing": ("\"timings\": {\"wait\": ", "%d.%06d" % (q(0, 999), q(0, 999999)), "},\n"),
        "pulumi_stack_ver": ("pulumi:pulumi ", "v%d.%d.%d.%d" % (q(3, 3), q(0, 140), q(0, 9), q(0, 9)), "\n"),
    }[kind]
    doc.t(lead)
    doc.look(v, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["#\n", "\n", "-- end\n", "%%\n", "···\n", "=\n"]


def heldout4_doc(r, doc, m):
    """One text of the fifth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
