#!/usr/bin/env python3
"""Generate benchmark corpora (never committed): JSON Lines of trace records.

usage: gen_corpus.py KIND COUNT OUT
  KIND: standard (cf records), full (with 1-4 KB chat-template content
        holding emails, cards, keys and names from the keyword list),
        evidence (latency-evidence records), otlp (bare `llm_request` spans as the
        engine exports them, about half with gen_ai.prompt / gen_ai.completion content),
        otlp-sdk (OTLP/JSON export requests of 1-8 GenAI spans, as an SDK batches them),
        keywords (the bench policy's keyword list: customer names, one a line),
        multilingual (full records whose content mixes German, French, Spanish,
        Russian, Greek, Chinese, Japanese, Arabic sentences and emoji into the
        English of `full`, several scripts in every record),
        multilingual-ascii (its ASCII twin: the same records with each
        non-ASCII sentence replaced by ASCII words of the same byte length),
        heldout-multilingual, heldout-multilingual-ascii (the same shape from
        sentences the keyword view was never tuned on: Hindi, Thai, Hebrew,
        Korean, Vietnamese, Turkish, Ukrainian, Persian, Polish, French in
        decomposed form (NFD) and emoji joined by ZWJ, so combining marks and
        ignorables, the view's slow paths, occur in every record)
Deterministic: a fixed seed, so runs compare like with like.
"""
import json, random, sys

FAMILIES = ["ltr", "ltr-promptlen", "affinity", "trace", "tie", "hybrid", "fcfs"]
WORDS = ("the invoice dashboard payment account billing support question answer "
         "context receipt overdue paid terms console page row expands customer "
         "order shipment refund policy plan upgrade renewal contract").split()


def standard(r, i):
    t = 1789040112.0 + i * 0.013
    lat = round(r.uniform(0.05, 9.0), 3)
    return {"request_id": "chatcmpl-%08x" % r.getrandbits(32), "t_arrival": round(t, 3),
            "t_completion": round(t + lat, 3), "prompt_tokens": r.randint(16, 4096),
            "output_tokens": r.randint(1, 1024), "e2e_latency_s": lat, "ttft_s": None,
            "queue_wait_s": round(r.uniform(0, 2), 3), "scheduler_family": r.choice(FAMILIES),
            "priority_score": round(r.uniform(-2000, 0), 1)}


def keywords(count):
    """The bench policy's keyword list (scripts/bench.sh), fixed by its seed."""
    r = random.Random(1000)
    return ["%s %s%d" % (r.choice(["Northwind", "Contoso", "Fabrikam", "Tailspin", "Litware"]),
                         "".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(7)), i)
            for i in range(count)]


KEYWORDS = keywords(1000)


def text(r, lo, hi, names=False):
    out, n = [], r.randint(lo, hi)
    size = 0
    while size < n:
        w = r.choice(WORDS)
        roll = r.random()
        if roll < 0.01:
            w = "jane.doe%d@example.com" % r.randint(1, 999)
        elif roll < 0.015:
            w = "4111 1111 1111 1111"
        elif roll < 0.02:
            w = "sk-proj-" + "".join(r.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(40))
        elif names and roll < 0.0225:
            # A listed customer name, in the list's case or lowercased (the
            # list is case-insensitive): about one per record.
            w = r.choice(KEYWORDS)
            if r.random() < 0.5:
                w = w.lower()
        out.append(w)
        size += len(w) + 1
    return " ".join(out)


def full(r, i):
    rec = standard(r, i)
    rec["prompt_text"] = ("<|im_start|>system\nYou are the support assistant.<|im_end|>\n<|im_start|>user\n"
                          + text(r, 800, 3000, names=True) + "<|im_end|>\n<|im_start|>assistant\n")
    rec["output_text"] = text(r, 200, 900, names=True)
    return rec


# Sentences users write, by script; every multilingual record draws from
# several of them.
FOREIGN = [
    "Können Sie die Rechnung für März prüfen? Die Überweisung ist längst erfolgt.",
    "Grüße aus München, die Bestellung kam beschädigt an und ich möchte eine Erstattung.",
    "Pourriez-vous vérifier la facture de février ? Le paiement a été effectué hier.",
    "Le délai de livraison était trop long, j'aimerais annuler la commande suivante.",
    "¿Podría revisar la factura de enero? El pago se realizó la semana pasada, señor.",
    "La aplicación muestra un error al iniciar sesión desde el teléfono móvil.",
    "Пожалуйста, проверьте счёт за апрель: оплата прошла три дня назад.",
    "Приложение не открывается после обновления, что мне делать?",
    "Μπορείτε να ελέγξετε το τιμολόγιο του Μαΐου; Η πληρωμή έγινε χθες.",
    "请帮我检查一下三月份的账单，付款已经在上周完成了。",
    "应用程序在更新后无法打开，请问应该怎么处理？",
    "先月の請求書を確認していただけますか。支払いは昨日完了しました。",
    "アプリが更新後に起動しません。どうすればよいでしょうか。",
    "هل يمكنك مراجعة فاتورة شهر يونيو؟ تم الدفع أمس.",
    "التطبيق لا يعمل بعد التحديث الأخير، ما الحل؟",
    "Thanks so much 🙏 the new plan works great 🎉🚀",
    "Still waiting on the refund 😤⏳ any update? 👀",
]


# Held out from tuning (issue 37): scripts and forms FOREIGN does not have.
HELDOUT = [
    "कृपया मार्च का बिल जाँचें, भुगतान पिछले सप्ताह हो गया था।",
    "ऐप अपडेट के बाद नहीं खुल रहा है, मुझे क्या करना चाहिए?",
    "กรุณาตรวจสอบใบแจ้งหนี้เดือนมีนาคม ชำระเงินแล้วเมื่อวานนี้",
    "แอปเปิดไม่ได้หลังจากอัปเดต ควรทำอย่างไรดีครับ",
    "אנא בדקו את החשבונית של חודש מרץ, התשלום בוצע אתמול.",
    "3월 청구서를 확인해 주시겠어요? 결제는 지난주에 완료되었습니다.",
    "Vui lòng kiểm tra hóa đơn tháng Ba, tôi đã thanh toán hôm qua.",
    "Mart ayı faturasını kontrol eder misiniz? Ödeme dün yapıldı, teşekkürler.",
    "Будь ласка, перевірте рахунок за березень: оплата пройшла вчора.",
    "لطفاً صورتحساب ماه مارس را بررسی کنید، پرداخت دیروز انجام شد.",
    "Proszę sprawdzić fakturę za marzec, płatność została wysłana wczoraj.",
    # French and Vietnamese in decomposed form (NFD): combining marks.
    "Le re\u0301sume\u0301 de la re\u0301union e\u0301tait tre\u0300s de\u0301taille\u0301.",
    "Chu\u0301ng to\u0302i đa\u0303 nha\u0323\u0302n đươ\u0323c thanh toa\u0301n.",
    # ZWJ sequences and variation selectors: ignorables.
    "Great work team 👩\u200d💻👨\u200d👩\u200d👧 ❤\ufe0f see you Monday ✔\ufe0f",
]


def ascii_twin(sentence, r):
    """ASCII words of exactly the UTF-8 byte length of `sentence`."""
    n = len(sentence.encode())
    out = ""
    while len(out) < n:
        out += r.choice(WORDS) + " "
    return out[:n - 1] + "." if n > 1 else "."


def multilingual_text(r, lo, hi, twin, pool=None):
    """`text` with a foreign sentence every few dozen words, at least one from
    each of four scripts per call (four sentences of `pool` when one is
    given); `twin` swaps each for ASCII of its length."""
    base = text(r, lo, hi, names=True).split(" ")
    if pool is None:
        picks = [r.choice(FOREIGN[i:i + 4]) for i in (0, 6, 9, 13)]
        pool = FOREIGN
    else:
        picks = [r.choice(pool) for _ in range(4)]
    picks += [r.choice(pool) for _ in range(len(base) // 40)]
    tr = random.Random(r.random())
    for s in picks:
        base.insert(r.randrange(len(base) + 1), ascii_twin(s, tr) if twin else s)
    return " ".join(base)


def multilingual(r, i, twin=False, pool=None):
    rec = standard(r, i)
    rec["prompt_text"] = ("<|im_start|>system\nYou are the support assistant.<|im_end|>\n<|im_start|>user\n"
                          + multilingual_text(r, 800, 3000, twin, pool) + "<|im_end|>\n<|im_start|>assistant\n")
    rec["output_text"] = multilingual_text(r, 200, 900, twin, pool)
    return rec


def otlp(r, i):
    start = 1788450022633673216 + i * 13000000
    dur = r.randint(50000000, 9000000000)
    attrs = [
        {"key": "cf.request_id", "value": {"stringValue": "chatcmpl-%016x-%08x" % (r.getrandbits(64), r.getrandbits(32))}},
        {"key": "gen_ai.usage.prompt_tokens", "value": {"intValue": str(r.randint(16, 4096))}},
        {"key": "gen_ai.usage.completion_tokens", "value": {"intValue": str(r.randint(1, 1024))}},
        {"key": "cf.e2e_latency_s", "value": {"doubleValue": round(dur / 1e9, 4)}},
        {"key": "cf.queue_wait_s", "value": {"doubleValue": round(r.uniform(0, 0.05), 4)}},
        {"key": "cf.scheduler.family", "value": {"stringValue": r.choice(FAMILIES)}},
    ]
    if r.random() < 0.5:
        attrs.append({"key": "gen_ai.prompt", "value": {"stringValue":
            "system\nYou are the billing assistant. Be brief.\nuser\n" + text(r, 80, 400) + "\nassistant\n"}})
        attrs.append({"key": "gen_ai.completion", "value": {"stringValue": text(r, 20, 200)}})
    return {"name": "llm_request", "kind": 1, "startTimeUnixNano": str(start),
            "endTimeUnixNano": str(start + dur), "attributes": attrs}


def otlp_sdk(r, i):
    """One OTLP/JSON export request as an SDK's batch processor sends it:
    1-8 GenAI spans under one resource and scope, about half of the spans
    with gen_ai.prompt / gen_ai.completion content."""
    spans = []
    for k in range(r.randint(1, 8)):
        start = 1788450022633673216 + i * 13000000 + k * 1000
        dur = r.randint(50000000, 9000000000)
        model = r.choice(["gpt-4o", "gpt-4o-mini", "claude-sonnet-4", "llama-3.1-8b"])
        attrs = [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
            {"key": "gen_ai.provider.name", "value": {"stringValue": "openai"}},
            {"key": "gen_ai.request.model", "value": {"stringValue": model}},
            {"key": "gen_ai.response.model", "value": {"stringValue": model}},
            {"key": "gen_ai.response.id", "value": {"stringValue": "chatcmpl-%016x" % r.getrandbits(64)}},
            {"key": "gen_ai.request.max_tokens", "value": {"intValue": str(r.choice([256, 512, 1024]))}},
            {"key": "gen_ai.request.temperature", "value": {"doubleValue": r.choice([0.0, 0.2, 0.7, 1.0])}},
            {"key": "gen_ai.usage.input_tokens", "value": {"intValue": str(r.randint(16, 4096))}},
            {"key": "gen_ai.usage.output_tokens", "value": {"intValue": str(r.randint(1, 1024))}},
            {"key": "server.address", "value": {"stringValue": "api.openai.com"}},
            {"key": "server.port", "value": {"intValue": "443"}},
        ]
        if r.random() < 0.5:
            attrs.append({"key": "gen_ai.prompt", "value": {"stringValue":
                "system\nYou are the billing assistant. Be brief.\nuser\n" + text(r, 80, 400)}})
            attrs.append({"key": "gen_ai.completion", "value": {"stringValue": text(r, 20, 200)}})
        spans.append({"traceId": "%032x" % r.getrandbits(128), "spanId": "%016x" % r.getrandbits(64),
                      "name": "chat " + model, "kind": 3, "startTimeUnixNano": str(start),
                      "endTimeUnixNano": str(start + dur), "attributes": attrs,
                      "status": {}})
    resource = [
        {"key": "service.name", "value": {"stringValue": "chat-gateway"}},
        {"key": "telemetry.sdk.language", "value": {"stringValue": "python"}},
        {"key": "telemetry.sdk.name", "value": {"stringValue": "opentelemetry"}},
        {"key": "telemetry.sdk.version", "value": {"stringValue": "1.45.2"}},
    ]
    return {"resourceSpans": [{"resource": {"attributes": resource},
                               "scopeSpans": [{"scope": {"name": "opentelemetry.instrumentation.openai_v2",
                                                         "version": "2.1b0"},
                                               "spans": spans}]}]}


def evidence(r, i):
    base = 842001000000 + i * 1000000
    d1, d2 = r.randint(50, 900), r.randint(100, 3000)
    def ts(ms):
        return "2026-09-08T10:%02d:%06.3fZ" % ((ms // 60000) % 60, (ms % 60000) / 1000)
    t0 = 30120 + i
    return {"schema_version": "latency-evidence.v1", "trace_id": "tr_%x" % i, "request_id": "req_%x" % i,
            "attempt": 1, "span_id": "span_%x" % i, "route_id": "route_%d" % (i % 4),
            "model_id": "model_%d" % (i % 3),
            "events": [
                {"stage": "upstream", "event_name": "provider_dispatch", "timestamp_utc": ts(t0),
                 "monotonic_ns": base, "service": "gateway"},
                {"stage": "upstream", "event_name": "first_output_token", "timestamp_utc": ts(t0 + d1),
                 "monotonic_ns": base + d1 * 1000000, "service": "gateway"},
                {"stage": "stream", "event_name": "final_output_token", "timestamp_utc": ts(t0 + d1 + d2),
                 "monotonic_ns": base + (d1 + d2) * 1000000, "service": "gateway"}],
            "derived_intervals": [
                {"name": "gateway_observed_time_to_first_token", "start_event": "provider_dispatch",
                 "end_event": "first_output_token", "duration": d1, "duration_unit": "ms"},
                {"name": "token_streaming_time", "start_event": "first_output_token",
                 "end_event": "final_output_token", "duration": d2, "duration_unit": "ms"}],
            "clock_source": "local_monotonic", "sync_status": "ntp_synced", "status": "completed"}


def main():
    kind, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if kind == "keywords":
        with open(out, "w") as f:
            f.writelines(w + "\n" for w in keywords(count))
        return
    make = {"standard": standard, "full": full, "evidence": evidence, "otlp": otlp,
            "otlp-sdk": otlp_sdk, "multilingual": multilingual,
            "multilingual-ascii": lambda r, i: multilingual(r, i, twin=True),
            "heldout-multilingual": lambda r, i: multilingual(r, i, pool=HELDOUT),
            "heldout-multilingual-ascii": lambda r, i: multilingual(r, i, twin=True, pool=HELDOUT)}[kind]
    r = random.Random(20261129)
    with open(out, "w") as f:
        for i in range(count):
            # UTF-8 as it is, not \\u escapes: users' text reaches the gate raw.
            f.write(json.dumps(make(r, i), separators=(", ", ": "), ensure_ascii=False))
            f.write("\n")


if __name__ == "__main__":
    main()
