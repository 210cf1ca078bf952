#!/usr/bin/env python3
"""Writes the OTLP fixtures of tests/it/otlp.rs (one JSON object per line).

Run from this folder: python3 gen.py. The output is committed; the script
documents how it was made and keeps the long lines reviewable.
"""
import json

TRACE_A = "5b8efff798038103d269b633813fc60c"
TRACE_B = "0af7651916cd43dd8448eb211c80319c"


def s(key, v):
    return {"key": key, "value": {"stringValue": v}}


def i(key, v):
    return {"key": key, "value": {"intValue": str(v)}}


def d(key, v):
    return {"key": key, "value": {"doubleValue": v}}


def span(trace, span_id, parent, rid, start, end, prompt, out, family="ltr-promptlen"):
    return {
        "traceId": trace,
        "spanId": span_id,
        "parentSpanId": parent,
        "name": "llm_request",
        "kind": 1,
        "startTimeUnixNano": str(start),
        "endTimeUnixNano": str(end),
        "attributes": [
            s("cf.request_id", rid),
            i("gen_ai.usage.prompt_tokens", prompt),
            i("gen_ai.usage.completion_tokens", out),
            d("cf.e2e_latency_s", round((end - start) / 1e9, 4)),
            d("cf.queue_wait_s", 0.0042),
            s("cf.scheduler.family", family),
        ],
        "events": [{"timeUnixNano": str(start + 1000000), "name": "first_scheduled"}],
        "status": {"code": 1},
    }


def collector_export():
    scope = {"name": "carbonforge.scheduler", "version": "1.4.0"}
    return {
        "resourceSpans": [
            {
                "resource": {
                    "attributes": [
                        s("service.name", "carbonforge-scheduler"),
                        s("service.version", "1.4.0"),
                    ]
                },
                "scopeSpans": [
                    {
                        "scope": scope,
                        "spans": [
                            span(TRACE_A, "eee19b7ec3c1b174", "", "chatcmpl-9f2c41d0",
                                 1789040112104000000, 1789040114312000000, 412, 128),
                            span(TRACE_A, "b7ad6b7169203331", "eee19b7ec3c1b174",
                                 "chatcmpl-c07aa1e9", 1789040112371000000,
                                 1789040116899000000, 1288, 256),
                        ],
                        "schemaUrl": "https://opentelemetry.io/schemas/1.26.0",
                    },
                    {
                        "scope": {"name": "carbonforge.router", "version": "0.9.1"},
                        "spans": [
                            span(TRACE_B, "00f067aa0ba902b7", "", "chatcmpl-51b8e277",
                                 1789040112590000000, 1789040119443000000, 96, 512, "fcfs")
                        ],
                    },
                ],
                "schemaUrl": "https://opentelemetry.io/schemas/1.26.0",
            },
            {
                "resource": {"attributes": [s("service.name", "carbonforge-scheduler-b")]},
                "scopeSpans": [
                    {
                        "scope": scope,
                        "spans": [
                            dict(
                                span(TRACE_B, "53995c3f42cd8ad8", "00f067aa0ba902b7",
                                     "chatcmpl-7d3fa9b2", 1789040231522000000,
                                     1789040235108000000, 634, 187),
                                links=[{"traceId": TRACE_A, "spanId": "eee19b7ec3c1b174",
                                        "traceState": "rojo=00f067aa0ba902b7", "flags": 1}],
                                traceState="rojo=00f067aa0ba902b7,congo=t61rcWkgMzE",
                                flags=257,
                                droppedAttributesCount=0,
                            )
                        ],
                    }
                ],
            },
        ]
    }


def logs_export():
    return {
        "resourceLogs": [
            {
                "resource": {"attributes": [s("service.name", "carbonforge-scheduler")]},
                "scopeLogs": [
                    {
                        "scope": {"name": "carbonforge.scheduler"},
                        "logRecords": [
                            {
                                "timeUnixNano": "1789040112104000000",
                                "observedTimeUnixNano": "1789040112105000000",
                                "severityNumber": 9,
                                "severityText": "INFO",
                                "traceId": TRACE_A,
                                "spanId": "eee19b7ec3c1b174",
                                "flags": 1,
                                "eventName": "scheduler.admit",
                            }
                        ],
                    }
                ],
            }
        ]
    }


def write(name, objs):
    with open(name, "w") as f:
        for o in objs:
            f.write(json.dumps(o, separators=(", ", ": ")) + "\n")


write("collector_export.jsonl", [collector_export(), logs_export()])
