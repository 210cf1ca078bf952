#!/usr/bin/env python3
# A held-out multilingual corpus for detector false positives: full cf
# records whose prompts hold the numbers real prompts carry (dates, times,
# prices, versions, order numbers) in ten languages and no secret or
# personal number, so every [REDACTED:...] in `tracegate redact` output on
# it is a false positive. Writes OUT (default bench-data/ml.jsonl; seeded).
# usage: python3 scripts/gen_multilingual.py [OUT] && tracegate redact --policy P OUT
import json, os, random, sys
OUT = sys.argv[1] if len(sys.argv) > 1 else "bench-data/ml.jsonl"
os.makedirs(os.path.dirname(OUT) or ".", exist_ok=True)
r = random.Random(7)
tmpl = [
 "Bitte fasse den Bericht vom {d}.{m}.{y} zusammen; die Sitzung begann um {h}:{mi}:{s} Uhr und kostete {p},{c} €.",
 "Commande n° {o} livrée le {d}/{m}/{y} à {h}h{mi}; total {p} {c3},{c} EUR, version {v1}.{v2}.{v3}.",
 "请总结{y}年{m}月{d}日的会议记录，订单号{o}，金额{p}.{c}元，时间{h}:{mi}。",
 "{y}年{m}月{d}日{h}時{mi}分に受付したチケット番号{o}の件、バージョン{v1}.{v2}.{v3}で再現しました。",
 "Пожалуйста, проверьте счёт № {o} от {d}.{m}.{y}: сумма {p} {c3},{c} руб., рейс {h}:{mi}.",
 "يرجى تلخيص الاجتماع بتاريخ {d}/{m}/{y} الساعة {h}:{mi}، رقم الطلب {o}، المبلغ {p}.{c} درهم.",
 "Resume la reunión del {d}-{m}-{y} a las {h}:{mi}; el pedido {o} pesa {p}.{c} kg y mide {v1}x{v2}x{v3} cm.",
 "कृपया {d}/{m}/{y} की बैठक का सारांश दें, आदेश संख्या {o}, राशि ₹{p},{c3}.{c}, समय {h}:{mi}।",
 "Run pipeline v{v1}.{v2}.{v3}-rc{v1} on {y}-{m}-{d}T{h}:{mi}:{s}Z, build {o}, latency p99 {p}.{c} ms, GPU {v1}/{v2}/{v3}.",
 "Tabela {o}: {p}.{c3}.{c3} habitantes em {y}; crescimento {v1},{v2}% entre {d}/{m} e {h}:{mi}.",
]
def f(t):
    return t.format(d=f"{r.randint(1,28):02d}", m=f"{r.randint(1,12):02d}", y=r.randint(1990,2030),
        h=f"{r.randint(0,23):02d}", mi=f"{r.randint(0,59):02d}", s=f"{r.randint(0,59):02d}",
        p=r.randint(1,9999), c=f"{r.randint(0,99):02d}", c3=f"{r.randint(0,999):03d}",
        o=r.randint(100000,99999999), v1=r.randint(0,40), v2=r.randint(0,99), v3=r.randint(0,999))
with open(OUT, "w") as out:
    for i in range(20000):
        prompt = " ".join(f(r.choice(tmpl)) for _ in range(3))
        rec = {"request_id": f"chatcmpl-{r.getrandbits(64):016x}", "prompt_text": prompt, "output_text": f(r.choice(tmpl)), "prompt_tokens": 100, "output_tokens": 20}
        out.write(json.dumps(rec, ensure_ascii=False)+"\n")
