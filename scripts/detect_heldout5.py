"""The fifth held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout5`; not run on its own.

A sixth template family, written and committed before any change for
heldout4's miss classes (the third round's third step), from real-world
formats and not from the detectors' code. The session that wrote it knew
heldout4's miss classes (api_key in Perl header hashes, Pulumi secrets,
Azure SAS, Redis auth, PowerShell SecureString, CloudFormation NoEcho;
ipv6 in SMTP address literals; SSNs in a CSV column; Turkish outline
numbers). Surroundings that no other family writes: Go templates,
Jenkinsfile/Groovy, Makefile, Nix, Bicep, Pulumi YAML, Vault policies
and CLI output, MongoDB/MySQL/psql connection strings and CLI flags,
Kubernetes Secret manifests, SMTP/IMAP transcripts, Postfix and Exim
logs, Cisco and Juniper configs, DNS zone files, ssh_config,
known_hosts, .netrc, git credential helpers; prose in Vietnamese,
Indonesian, Thai, Hungarian, Romanian, Ukrainian, Persian and Bengali;
phone numbers, SSNs, cards and IBANs in tables, columns and key-value
dumps; look-alikes (versions, build ids, order and ticket numbers,
serials, coordinates, dates, hashes, UUIDs, ports, MACs, decimal ids).

It reuses only the value makers of `detect_corpus.py` (card_number, jwt,
pem, group4). It is the project's own, like the others.
"""
import base64
from detect_values import AN, D, HEX, UP, _d, _nz, _s, _ssn, _tok, with_check, family_doc


NAMES = ["Nguyễn Thị Lan", "Dewi Lestari", "Kovács Péter", "Ion Popescu", "Тарас Шевчук", "سارا احمدی",
         "রহিম উদ্দিন", "สมหญิง แสนดี", "Andrei Ionescu", "Szabó Anna"]


def _iban(r):
    country, bban = r.choice([
        ("HU", lambda: _d(r, 24)),
        ("RO", lambda: "".join(r.choice(UP) for _ in range(4)) + _d(r, 16)),
        ("UA", lambda: _d(r, 25)),
        ("PL", lambda: _d(r, 24)),
        ("BE", lambda: _d(r, 12)),
        ("AT", lambda: _d(r, 16)),
        ("SI", lambda: _d(r, 15)),
    ])
    return with_check(country, bban())


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([10, 45, 62, 88, 103, 141, 172, 192, 203, 217]), r.randint(0, 255),
                            r.randint(0, 255), r.randint(1, 254))


def _put(doc, lead, value, cls, form, tail):
    doc.t(lead)
    doc.item(value, cls, "r_" + form)
    doc.t(tail)


# ------------------------------------------------------------------ items

def i_email(r, doc, m):
    e = "%s@%s" % (r.choice(["lan.nguyen", "dewi", "kovacs.peter", "ion.popescu", "taras", "sara.ahmadi", "rahim",
                             "postmaster", "hostmaster", "billing-team"]),
                   r.choice(["vidu.com.vn", "contoh.id", "pelda.hu", "exemplu.ro", "pryklad.com.ua", "nemune.ir",
                             "udahoron.com.bd", "example.in.th", "mail.example.org"]))
    form = r.choice(["git_config", "postfix", "exim", "smtp_rcpt", "imap_login", "zone_soa_rname", "jenkins",
                     "makefile", "nix", "go_tmpl", "vault_meta", "k8s_annotation", "vi_prose", "id_prose",
                     "hu_prose", "ro_prose", "uk_prose", "fa_prose", "bn_prose", "th_prose"])
    # The relay of a Postfix or Exim line is a real address: an item of its
    # own (labelling fix of the fourth round; it was unlabelled text).
    relay = (_v4(r), _v4(r))
    lead, tail = {
        "git_config": ("[user]\n\tname = x\n\temail = ", "\n"),
        "postfix": ("Dec  5 09:14:02 mx1 postfix/smtp[2211]: 4F2A91C0B3: to=<", (">, relay=mx.example.org[", relay[0], "]:25, status=sent (250 ok)\n")),
        "exim": ("2026-12-05 09:14:02 1tJ4aB-0003xY-7Q <= ", (" H=relay.example.org [", relay[1], "] P=esmtps S=2215\n")),
        "smtp_rcpt": ("C: RCPT TO:<", ">\nS: 250 2.1.5 Ok\n"),
        "imap_login": ("a001 LOGIN ", " \"*****\"\n"),
        "zone_soa_rname": ("; responsible: ", "\n"),
        "jenkins": ("    emailext to: '", "', subject: \"Build ${BUILD_NUMBER} failed\"\n"),
        "makefile": ("MAINTAINER := ", "\n"),
        "nix": ("  maintainers = [ { email = \"", "\"; } ];\n"),
        "go_tmpl": ("{{ define \"footer\" }}Contact: ", "{{ end }}\n"),
        "vault_meta": ("custom_metadata    map[owner:", "]\n"),
        "k8s_annotation": ("  annotations:\n    owner: ", "\n"),
        "vi_prose": ("Mọi thắc mắc xin liên hệ ", " nhé.\n"),
        "id_prose": ("Hubungi kami lewat surel ", " kapan saja.\n"),
        "hu_prose": ("Kérdés esetén írjon a(z) ", " címre.\n"),
        "ro_prose": ("Pentru detalii scrieți la ", ", vă mulțumim.\n"),
        "uk_prose": ("Електронна пошта: ", "\n"),
        "fa_prose": ("لطفاً به ", " ایمیل بزنید.\n"),
        "bn_prose": ("যোগাযোগ করুন ", " ঠিকানায়।\n"),
        "th_prose": ("ส่งอีเมลมาที่ ", " ได้เลยครับ\n"),
    }[form]
    if isinstance(tail, tuple):
        mid, ip, rest = tail
        _put(doc, lead, e, "email", form, mid)
        _put(doc, "", ip, "ipv4", form + "_relay", rest)
    else:
        _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    form = r.choice(["vn_mobile", "id_mobile", "th_mobile", "hu_budapest", "ro_bucuresti", "ua_mobile", "ir_tehran",
                     "bd_mobile", "us_table", "us_kv_dump", "us_vcard", "us_sip", "hu_national_ctx",
                     "ro_national_ctx", "us_dots_ctx", "us_csv_col"])
    a, x, s = "%s%s" % (_nz(r), _d(r, 2)), "%s%s" % (_nz(r), _d(r, 2)), _d(r, 4)
    lead, p, tail = {
        "vn_mobile": ("Số điện thoại: ", "+84 9%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3)), "\n"),
        "id_mobile": ("No. HP: ", "+62 812-%s-%s" % (_d(r, 4), _d(r, 4)), "\n"),
        "th_mobile": ("เบอร์โทร ", "+66 8%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)), "\n"),
        "hu_budapest": ("Telefonszám: ", "+36 1 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "ro_bucuresti": ("Telefon: ", "+40 21 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "ua_mobile": ("Моб.: ", "+380 67 %s %s %s" % (_d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "ir_tehran": ("تلفن: ", "+98 21 %s %s" % (_d(r, 4), _d(r, 4)), "\n"),
        "bd_mobile": ("ফোন: ", "+880 1711-%s" % _d(r, 6), "\n"),
        "us_table": ("| Name | Phone |\n|---|---|\n| %s | " % r.choice(NAMES), "+1 %s %s %s" % (a, x, s), " |\n"),
        "us_kv_dump": ("contact.name: x\ncontact.phone: ", "+1.%s.%s.%s" % (a, x, s), "\n"),
        "us_vcard": ("BEGIN:VCARD\nTEL;TYPE=cell:", "+1-%s-%s-%s" % (a, x, s), "\nEND:VCARD\n"),
        "us_sip": ("From: <sip:", "+1%s%s%s" % (a, x, s), "@sip.example.com>;tag=9fxced76sl\n"),
        "hu_national_ctx": ("Tel.: ", "06 1 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "ro_national_ctx": ("Tel: ", "021 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "us_dots_ctx": ("phone: ", "%s.%s.%s" % (a, x, s), "\n"),
        "us_csv_col": ("name,phone,city\n%s," % r.choice(NAMES), "+1 (%s) %s-%s" % (a, x, s), ",Austin\n"),
    }[form]
    _put(doc, lead, p, "phone", form, tail)


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["tsv_col", "kv_dump", "go_struct", "groovy_map", "nix_attr", "psql_row", "mysql_row",
                     "fixed_width", "json_ssn_last4_no", "prose_ro", "yaml_key"])
    lead, v, tail = {
        "tsv_col": ("emp_id\tSSN\tdept\n%d\t" % r.randint(1000, 9999), dashed, "\tops\n"),
        "kv_dump": ("applicant.ssn = ", dashed, "\napplicant.state = TX\n"),
        "go_struct": ("emp := Employee{Name: \"x\", SSN: \"", dashed, "\"}\n"),
        "groovy_map": ("def emp = [name: 'x', ssn: '", dashed, "']\n"),
        "nix_attr": ("  employee.ssn = \"", dashed, "\";\n"),
        "psql_row": (" id | ssn         | state\n----+-------------+-------\n  7 | ", dashed, " | NV\n"),
        "mysql_row": ("+----+-------------+\n| id | ssn         |\n+----+-------------+\n|  7 | ", dashed, " |\n"),
        "fixed_width": ("SOCIAL SECURITY NO.   ", dashed, "   DOB 1980-01-01\n"),
        "json_ssn_last4_no": ("{\"taxpayer\": {\"social_security_number\": \"", a + g + s, "\"}}\n"),
        "prose_ro": ("SSN-ul angajatului american este ", dashed, ".\n"),
        "yaml_key": ("employee:\n  ssn: \"", dashed, "\"\n"),
    }[form]
    _put(doc, lead, v, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = m.card_number(r)
    shown = ("%s %s %s" % (c[:4], c[4:10], c[10:])) if kind == "amex" else m.group4(c, r.choice([" ", "-", ""]))
    form = r.choice(["kv_dump", "md_table", "groovy", "go_struct", "nix", "psql_row", "vi_prose", "id_prose",
                     "hu_prose", "ro_prose", "th_prose", "fa_prose"])
    lead, v, tail = {
        "kv_dump": ("payment.card_number: ", shown, "\npayment.exp: 12/29\n"),
        "md_table": ("| Holder | Card |\n|---|---|\n| %s | " % r.choice(NAMES), shown, " |\n"),
        "groovy": ("def card = [pan: '", c, "', cvv: '123']\n"),
        "go_struct": ("c := Card{Number: \"", c, "\", Exp: \"12/29\"}\n"),
        "nix": ("  testCard = \"", shown, "\";\n"),
        "psql_row": (" id | pan\n----+------------------\n  1 | ", c, "\n"),
        "vi_prose": ("Thẻ tín dụng: ", shown, "\n"),
        "id_prose": ("Nomor kartu kredit saya ", shown, ", tolong dicek.\n"),
        "hu_prose": ("A bankkártyám száma ", shown, ".\n"),
        "ro_prose": ("Numărul cardului: ", shown, "\n"),
        "th_prose": ("หมายเลขบัตร ", shown, "\n"),
        "fa_prose": ("شماره کارت: ", shown, "\n"),
    }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = m.group4(i)
    form = r.choice(["hu_prose", "ro_prose", "uk_prose", "kv_dump", "md_table", "go_struct", "groovy", "nix",
                     "csv_col", "vi_prose"])
    lead, v, tail = {
        "hu_prose": ("Kérjük, utalja a(z) ", spaced, " számlára.\n"),
        "ro_prose": ("Cont IBAN: ", spaced, "\n"),
        "uk_prose": ("Реквізити: IBAN ", i, "\n"),
        "kv_dump": ("vendor.bank.iban=", i, "\n"),
        "md_table": ("| Vendor | IBAN |\n|---|---|\n| Acme | ", spaced, " |\n"),
        "go_struct": ("p := Payee{IBAN: \"", i, "\"}\n"),
        "groovy": ("def payee = [iban: '", i, "']\n"),
        "nix": ("  payout.iban = \"", i, "\";\n"),
        "csv_col": ("vendor,iban,currency\nAcme,", i, ",EUR\n"),
        "vi_prose": ("Số tài khoản IBAN ", spaced, "\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip = _v4(r)
    form = r.choice(["cisco_if", "cisco_acl", "juniper", "zone_a", "ssh_config", "known_hosts", "postfix_client",
                     "exim_h", "nix_net", "bicep", "makefile", "mysql_cli", "psql_cli", "mongo_cli", "go_tmpl",
                     "hu_prose", "vi_prose", "bn_prose"])
    lead, tail = {
        "cisco_if": ("interface GigabitEthernet0/1\n ip address ", " 255.255.255.0\n"),
        "cisco_acl": ("access-list 110 permit tcp host ", " any eq 22\n"),
        "juniper": ("set interfaces ge-0/0/0 unit 0 family inet address ", "/24\n"),
        "zone_a": ("www     3600    IN      A       ", "\n"),
        "ssh_config": ("Host bastion\n    HostName ", "\n    User ops\n"),
        "known_hosts": ("", " ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTY=\n"),
        "postfix_client": ("Dec  5 09:14:02 mx1 postfix/smtpd[1022]: connect from unknown[", "]\n"),
        "exim_h": ("2026-12-05 09:14:02 H=(helo.example) [", "] rejected RCPT\n"),
        "nix_net": ("  networking.interfaces.eth0.ipv4.addresses = [ { address = \"", "\"; prefixLength = 24; } ];\n"),
        "bicep": ("param allowedIp string = '", "'\n"),
        "makefile": ("DEPLOY_HOST ?= ", "\n"),
        "mysql_cli": ("mysql -h ", " -P 3306 -u app -p shop\n"),
        "psql_cli": ("psql --host=", " --port=5432 --username=app\n"),
        "mongo_cli": ("mongosh --host ", " --port 27017\n"),
        "go_tmpl": ("upstream {{ .Name }} { server ", ":8080; }\n"),
        "hu_prose": ("A szerver címe ", ", de nem válaszol.\n"),
        "vi_prose": ("Máy chủ có địa chỉ ", " bị chặn.\n"),
        "bn_prose": ("সার্ভারের আইপি ", " থেকে সংযোগ আসছে।\n"),
    }[form]
    if form == "cisco_if":
        # The netmask is a look-alike (see i_look's cisco_mask).
        _put(doc, lead, ip, "ipv4", form, " ")
        doc.look("255.255.255.0", "cisco_mask")
        doc.t("\n")
    else:
        _put(doc, lead, ip, "ipv4", form, tail)


def i_ipv6(r, doc, m):
    g = lambda: "%x" % r.randint(1, 0xffff)
    form = r.choice(["zone_aaaa", "cisco_v6", "juniper_v6", "ssh_config", "postfix_v6", "exim_v6", "nix_v6",
                     "known_hosts_v6", "mongo_uri_v6", "ro_prose"])
    lead, ip, tail = {
        "zone_aaaa": ("www     3600    IN      AAAA    ", "2001:db8:%s::%s" % (g(), g()), "\n"),
        "cisco_v6": ("interface Vlan10\n ipv6 address ", "2001:db8:%s:%s::1" % (g(), g()), "/64\n"),
        "juniper_v6": ("set interfaces ge-0/0/1 unit 0 family inet6 address ", "2a02:%s:%s::%s" % (g(), g(), g()), "/64\n"),
        "ssh_config": ("Host v6box\n    HostName ", "2600:%s:%s::%s" % (g(), g(), g()), "\n"),
        "postfix_v6": ("Dec  5 09:14:02 mx1 postfix/smtpd[1022]: connect from mail.example.org[", "2a00:%s:%s::%s" % (g(), g(), g()), "]\n"),
        "exim_v6": ("2026-12-05 09:14:02 H=mx.example.org [", "2604:%s:%s::%s" % (g(), g(), g()), "]:25 Connection refused\n"),
        "nix_v6": ("  networking.interfaces.eth0.ipv6.addresses = [ { address = \"", "2a01:%s:%s::%s" % (g(), g(), g()), "\"; prefixLength = 64; } ];\n"),
        "known_hosts_v6": ("[", "2001:db8:%s::%s" % (g(), g()), "]:2222 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5\n"),
        "mongo_uri_v6": ("mongodb://[", "2a05:%s:%s::%s" % (g(), g(), g()), "]:27017/app\n"),
        "ro_prose": ("Adresa IPv6 a serverului este ", "2a02:%s:%s::%s" % (g(), g(), g()), ".\n"),
    }[form]
    _put(doc, lead, ip, "ipv6", form, tail)


def i_api_key(r, doc, m):
    form = r.choice([
        "vault_login", "vault_kv_put", "vault_token_out", "k8s_secret_stringdata", "k8s_secret_data_b64",
        "netrc_password", "git_cred_store", "jenkins_env", "makefile_token", "nix_secret", "bicep_secure_default",
        "pulumi_yaml_secure", "mysql_pflag", "mongo_pflag", "psql_pgpassword", "go_tmpl_token", "cisco_secret",
        "juniper_secret", "imap_login", "smtp_auth_plain", "github_ghs", "gitlab_runner", "doppler", "hf_token"])
    if form == "vault_login":
        lead, v, tail = "vault login ", "hvs." + _tok(r, 24), "\n"
    elif form == "vault_kv_put":
        lead, v, tail = "vault kv put secret/app db_password=", _tok(r, 22), "\n"
    elif form == "vault_token_out":
        lead, v, tail = "Key                  Value\n---                  -----\ntoken                ", "hvs." + _tok(r, 24), "\ntoken_accessor       x\n"
    elif form == "k8s_secret_stringdata":
        lead, v, tail = "kind: Secret\nstringData:\n  api-token: ", _tok(r, 32), "\n"
    elif form == "k8s_secret_data_b64":
        lead, v, tail = "kind: Secret\ntype: Opaque\ndata:\n  password: ", base64.b64encode(_tok(r, 18).encode()).decode(), "\n"
    elif form == "netrc_password":
        lead, v, tail = "machine api.example.com login deploy password ", _tok(r, 24), "\n"
    elif form == "git_cred_store":
        lead, v, tail = "https://deploy:", "ghp_" + _tok(r, 36), "@github.com\n"
    elif form == "jenkins_env":
        lead, v, tail = "    environment {\n        API_TOKEN = '", _tok(r, 32), "'\n    }\n"
    elif form == "makefile_token":
        lead, v, tail = "REGISTRY_TOKEN ?= ", _tok(r, 32), "\n"
    elif form == "nix_secret":
        lead, v, tail = "  services.app.secretKey = \"", _tok(r, 40), "\";\n"
    elif form == "bicep_secure_default":
        lead, v, tail = "@secure()\nparam adminPassword string = '", _tok(r, 20), "'\n"
    elif form == "pulumi_yaml_secure":
        lead, v, tail = "config:\n  app:dbPassword:\n    secure: ", "v1:" + _tok(r, 16, AN + "+/") + ":" + _tok(r, 40, AN + "+/"), "\n"
    elif form == "mysql_pflag":
        lead, v, tail = "mysql -u root -p", _tok(r, 16), " -h db.internal shop\n"
    elif form == "mongo_pflag":
        lead, v, tail = "mongosh --username admin --password ", _tok(r, 20), " --authenticationDatabase admin\n"
    elif form == "psql_pgpassword":
        lead, v, tail = "PGPASSWORD=", _tok(r, 20), " psql -h db.internal -U app\n"
    elif form == "go_tmpl_token":
        lead, v, tail = "{{- $token := \"", _tok(r, 32), "\" -}}\n"
    elif form == "cisco_secret":
        lead, v, tail = "username admin privilege 15 password 0 ", _tok(r, 16), "\n"
    elif form == "juniper_secret":
        lead, v, tail = "set system login user ops authentication plain-text-password-value ", _tok(r, 16), "\n"
    elif form == "imap_login":
        lead, v, tail = "a001 LOGIN user@example.com ", _tok(r, 18), "\n"
    elif form == "smtp_auth_plain":
        lead, v, tail = "C: AUTH PLAIN ", base64.b64encode(("\0user\0" + _tok(r, 16)).encode()).decode(), "\n"
    elif form == "github_ghs":
        lead, v, tail = "GH_TOKEN: ", "ghs_" + _tok(r, 36), "\n"
    elif form == "gitlab_runner":
        lead, v, tail = "  token = \"", "glrt-" + _tok(r, 20, AN + "_-"), "\"\n"
    elif form == "doppler":
        lead, v, tail = "DOPPLER_TOKEN=", "dp.st.prd." + _tok(r, 40), "\n"
    else:
        lead, v, tail = "HF_TOKEN=", "hf_" + _tok(r, 34), "\n"
    if form == "imap_login":
        # The login is an email address: an item of its own (labelling
        # fix of the fourth round; it was unlabelled text).
        _put(doc, "a001 LOGIN ", "user@example.com", "email", form, " ")
        lead = ""
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["vault_jwt_login", "k8s_sa_token", "jenkins", "go_tmpl", "nix", "kv_dump", "groovy_hdr"])
    lead, tail = {
        "vault_jwt_login": ("vault write auth/jwt/login role=ci jwt=", "\n"),
        "k8s_sa_token": ("kind: Secret\nstringData:\n  token: ", "\n"),
        "jenkins": ("        ID_TOKEN = '", "'\n"),
        "go_tmpl": ("{{ $jwt := \"", "\" }}\n"),
        "nix": ("  auth.idToken = \"", "\";\n"),
        "kv_dump": ("session.id_token=", "\n"),
        "groovy_hdr": ("conn.setRequestProperty('Authorization', 'Bearer ", "')\n"),
    }[form]
    _put(doc, lead, m.jwt(r), "jwt", form, tail)


def i_private_key(r, doc, m):
    k, kind = m.pem(r)
    form = r.choice(["k8s_tls_stringdata", "nix_multiline", "groovy_triple", "vault_write", "go_raw"])
    ind = lambda s, n: "\n".join(" " * n + ln for ln in s.split("\n"))
    lead, v, tail = {
        "k8s_tls_stringdata": ("kind: Secret\ntype: kubernetes.io/tls\nstringData:\n  tls.key: |\n", ind(k, 4), "\n"),
        "nix_multiline": ("  sslKey = ''\n", k, "\n  '';\n"),
        "groovy_triple": ("def key = '''", k, "'''\n"),
        "vault_write": ("vault write pki/config/ca pem_bundle=- <<EOF\n", k, "\nEOF\n"),
        "go_raw": ("const key = `", k, "`\n"),
    }[form]
    if form == "k8s_tls_stringdata":
        # The block's indentation before BEGIN is YAML, not key: the item
        # is what a detector's span holds, BEGIN to END (labelling fix of
        # the fourth round; it began at the indentation).
        lead, v = lead + "    ", v[4:]
    _put(doc, lead, v, "private_key", "%s_%s" % (form, kind), tail)


def i_url(r, doc, m):
    pw = _tok(r, r.randint(10, 22))
    form = r.choice(["mongo_rs", "mysqlx", "psql_cli_uri", "git_cred_store", "smtp_url", "imaps_url", "ldaps",
                     "nix_url", "jenkins_git", "makefile_url"])
    lead, tail = {
        "mongo_rs": ("mongodb://app:", "@db1.internal:27017,db2.internal:27017/app?replicaSet=rs0\n"),
        "mysqlx": ("mysqlsh --uri mysqlx://root:", "@db.internal:33060\n"),
        "psql_cli_uri": ("psql \"postgresql://report:", "@pg.internal:5432/dwh?sslmode=require\"\n"),
        "git_cred_store": ("https://ci-bot:", "@gitlab.example.com\n"),
        "smtp_url": ("EMAIL_URL=smtp+tls://mailer:", "@smtp.example.com:587\n"),
        "imaps_url": ("fetchmail imaps://inbox:", "@imap.example.com/INBOX\n"),
        "ldaps": ("LDAP_URI=ldaps://cn=admin:", "@ldap.example.com:636\n"),
        "nix_url": ("  cache.url = \"https://nix:", "@cache.example.com\";\n"),
        "jenkins_git": ("    git url: 'https://jenkins:", "@git.example.com/app.git'\n"),
        "makefile_url": ("DB_URL ?= mysql://app:", "@127.0.0.1:3306/app\n"),
    }[form]
    if form == "makefile_url":
        # The URL's host is an IPv4 address (loopback, but the ipv4 class
        # has no range exception): an item of its own (labelling fix of the
        # fourth round; it was unlabelled text).
        _put(doc, lead, pw, "url_credentials", form, "@")
        _put(doc, "", "127.0.0.1", "ipv4", form + "_host", ":3306/app\n")
    else:
        _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def i_look(r, doc, m):
    q = r.randint
    kind = r.choice([
        "go_version", "nix_version", "jenkins_build", "build_id", "order_no", "ticket_no", "serial_no",
        "coords", "date_dotted", "date_slash", "date_hu", "sha1", "sha256", "uuid", "port_list", "mac_colon",
        "mac_cisco", "decimal_id", "zone_serial", "cisco_ios_ver", "junos_ver", "snmp_oid", "mongo_objectid",
        "vault_accessor", "k8s_resource_version", "postfix_queue_id", "exim_msg_id", "hu_section", "ro_article",
        "vi_invoice", "id_npwp", "cisco_mask", "nix_hash", "makefile_ver", "bicep_api_ver", "semver_build",
        "imap_uidvalidity"])
    lead, v, tail = {
        "go_version": ("go ", "1.%d.%d" % (q(18, 23), q(0, 9)), "\n"),
        "nix_version": ("  version = \"", "%d.%d.%d.%d" % (q(0, 9), q(0, 30), q(0, 9), q(0, 99)), "\";\n"),
        "jenkins_build": ("Finished build #", str(q(100, 99999)), ": SUCCESS\n"),
        "build_id": ("BUILD_ID=", "%d.%d.%d.%d" % (q(1, 9), q(0, 99), q(0, 999), q(0, 9999)), "\n"),
        "order_no": ("Đơn hàng số ", "%s-%s" % (_d(r, 3), _d(r, 7)), " đã được giao.\n"),
        "ticket_no": ("Ticket INC", _d(r, 9), " closed.\n"),
        "serial_no": ("Serial Number: ", "FCW" + _d(r, 4) + _s(r, UP, 4), "\n"),
        "coords": ("lat/lon: ", "%d.%06d, %d.%06d" % (q(10, 60), q(0, 999999), q(10, 120), q(0, 999999)), "\n"),
        "date_dotted": ("Dátum: ", "%d.%02d.%02d." % (q(2020, 2026), q(1, 12), q(1, 28)), "\n"),
        "date_slash": ("Ngày ", "%02d/%02d/%d" % (q(1, 28), q(1, 12), q(2020, 2026)), "\n"),
        "date_hu": ("Kelt: Budapest, ", "%d. %02d. %02d." % (q(2020, 2026), q(1, 12), q(1, 28)), "\n"),
        "sha1": ("commit ", _s(r, HEX, 40), "\n"),
        "sha256": ("  sha256 = \"", _s(r, HEX, 64), "\";\n"),
        "uuid": ("request_id=", "%s-%s-4%s-a%s-%s" % (_s(r, HEX, 8), _s(r, HEX, 4), _s(r, HEX, 3), _s(r, HEX, 3), _s(r, HEX, 12)), "\n"),
        "port_list": ("EXPOSE ", "%d %d %d" % (q(1024, 9999), q(1024, 9999), q(1024, 9999)), "\n"),
        "mac_colon": ("ether ", ":".join(_s(r, HEX, 2) for _ in range(6)), " txqueuelen 1000\n"),
        "mac_cisco": ("Vlan10  ", ".".join(_s(r, HEX, 4) for _ in range(3)), "  DYNAMIC  Gi0/1\n"),
        "decimal_id": ("user_id=", str(q(10 ** 8, 10 ** 10)), "\n"),
        "zone_serial": ("@ IN SOA ns1.example.com. hostmaster.example.com. ( ", "%d%02d%02d%02d" % (q(2020, 2026), q(1, 12), q(1, 28), q(0, 99)), " 3600 600 604800 300 )\n"),
        "cisco_ios_ver": ("Cisco IOS Software, Version ", "%d.%d(%d)T%d" % (q(12, 17), q(1, 9), q(1, 9), q(1, 9)), "\n"),
        "junos_ver": ("JUNOS Software Release [", "%d.%dR%d.%d" % (q(18, 23), q(1, 4), q(1, 9), q(1, 20)), "]\n"),
        "snmp_oid": ("snmpget -v2c -c public host ", "1.3.6.1.2.1.1.%d.0" % q(1, 9), "\n"),
        "mongo_objectid": ("{\"_id\": ObjectId(\"", _s(r, HEX, 24), "\")}\n"),
        "vault_accessor": ("token_accessor       ", _tok(r, 24), "\n"),
        "k8s_resource_version": ("  resourceVersion: \"", str(q(10 ** 5, 10 ** 9)), "\"\n"),
        "postfix_queue_id": ("postfix/qmgr[900]: ", _s(r, "0123456789ABCDEF", 10), ": removed\n"),
        "exim_msg_id": ("2026-12-05 09:14:03 ", "%s-%s-%s" % (_tok(r, 6), _tok(r, 6), _s(r, AN, 2)), " Completed\n"),
        "hu_section": ("Lásd a ", "%d.%d.%d.%d" % (q(1, 12), q(1, 9), q(1, 9), q(1, 9)), ". pontot.\n"),
        "ro_article": ("Conform art. ", "%d.%d.%d.%d" % (q(1, 12), q(1, 9), q(1, 9), q(1, 9)), " din regulament.\n"),
        "vi_invoice": ("Hóa đơn số: ", "%s/%s" % (_d(r, 7), _d(r, 4)), "\n"),
        "id_npwp": ("NPWP: ", "%s.%s.%s.%s-%s.%s" % (_d(r, 2), _d(r, 3), _d(r, 3), _d(r, 1), _d(r, 3), _d(r, 3)), "\n"),
        "cisco_mask": (" ip address ", "255.255.%d.0" % r.choice([0, 128, 192, 224, 240, 248, 252]), "\n"),
        "nix_hash": ("  hash = \"sha256-", _tok(r, 43, AN + "+/") + "=", "\";\n"),
        "makefile_ver": ("VERSION := ", "%d.%d.%d" % (q(0, 9), q(0, 30), q(0, 99)), "\n"),
        "bicep_api_ver": ("resource sa 'Microsoft.Storage/storageAccounts@", "%d-%02d-%02d" % (q(2019, 2024), q(1, 12), q(1, 28)), "' = {\n"),
        "semver_build": ("Version: ", "%d.%d.%d+build.%d" % (q(0, 9), q(0, 30), q(0, 99), q(1, 9999)), "\n"),
        "imap_uidvalidity": ("* OK [UIDVALIDITY ", str(q(10 ** 8, 4 * 10 ** 9)), "] UIDs valid\n"),
    }[kind]
    if kind == "cisco_mask":
        # The address before the mask is an item (labelling fix of the
        # fourth round: it was unlabelled text beside a labelled mask).
        _put(doc, lead, _v4(r), "ipv4", "cisco_mask_addr", " ")
        lead = ""
    doc.t(lead)
    doc.look(v, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["\n", "# --\n", "// ...\n", ";;\n", "---\n", "…\n"]


def heldout5_doc(r, doc, m):
    """One text of the sixth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
