//! The built-in defaults: what a policy that leaves a section out gets.
//!
//! **Invariant:** these equal `policies/default.toml` (a test compiles both
//! and compares them). They live here as well as there so that a deleted or
//! edited example file can never change what an absent section means.

/// The defaults, in policy TOML.
pub const BUILTIN_DEFAULTS: &str = r#"version = 1
[server]
listen = "127.0.0.1:4318"
grpc_listen = "127.0.0.1:4317"
max_body_bytes = 8388608
queue_records = 10000
queue_bytes = 67108864
flush_interval = "1s"
retry_initial_interval = "5s"
retry_max_interval = "30s"
retry_max_elapsed = "5m"
max_connections = 1024
header_read_timeout = "10s"
body_read_timeout = "30s"
idle_timeout = "60s"
max_spans = 16384
max_log_records = 16384
max_events = 65536
max_links = 65536
max_attributes = 262144
max_nesting = 8
decode_memory_bytes = 268435456
[fleet]
replicas = 1
store_timeout = "500ms"
[limits]
max_line_bytes = 16777216
[full]
content_fields = ["prompt_text", "output_text"]
content_attributes = [
  "gen_ai.prompt",
  "gen_ai.completion",
  "gen_ai.prompt.*",
  "gen_ai.completion.*",
  "gen_ai.input.messages",
  "gen_ai.output.messages",
  "gen_ai.system_instructions",
  "gen_ai.tool.definitions",
  "gen_ai.tool.call.arguments",
  "gen_ai.tool.call.result",
  "gen_ai.retrieval.query.text",
  "gen_ai.retrieval.documents",
  "gen_ai.memory.query.text",
  "gen_ai.memory.query",
  "gen_ai.memory.records",
  "gen_ai.memory.content",
  "gen_ai.evaluation.explanation",
  "gen_ai.event.content",
  "gen_ai.input.messages_ref",
  "gen_ai.output.messages_ref",
  "gen_ai.system_instructions_ref",
  "gen_ai.tool.definitions_ref",
  "input.value",
  "output.value",
  "llm.input_messages.*",
  "llm.output_messages.*",
  "llm.prompts.*",
  "llm.choices.*",
  "llm.tools.*",
  "llm.prompt_template.**",
  "llm.invocation_parameters",
  "llm.function_call",
  "tool.parameters",
  "tool_call.function.arguments",
  "retrieval.documents.*",
  "reranker.**",
  "embedding.embeddings.*",
  "traceloop.entity.input",
  "traceloop.entity.output",
  "traceloop.prompt.**",
  "llm.request.functions.*",
  "traceloop.association.properties.**",
  "langsmith.metadata.**",
  "langsmith.request.headers",
  "gen_ai.request.extra_query",
  "gen_ai.request.extra_body",
  "gen_ai.serialized.doc",
  "gen_ai.serialized.signature",
  "mlflow.spanInputs",
  "mlflow.spanOutputs",
  "mlflow.traceInputs",
  "mlflow.traceOutputs",
  "mlflow.chat.tools",
  "pydantic_ai.all_messages",
  "all_messages_events",
  "final_result",
  "tool_arguments",
  "tool_response",
  "request_data",
  "response_data",
  "langfuse.trace.input",
  "langfuse.trace.output",
  "langfuse.observation.input",
  "langfuse.observation.output",
  "langfuse.trace.metadata",
  "langfuse.trace.metadata.**",
  "langfuse.observation.metadata",
  "langfuse.observation.metadata.**",
  "gen_ai.guardrail.content.input.value",
  "gen_ai.guardrail.content.output.value",
  "gen_ai.skill.definitions",
  "gen_ai.execution.state.changed_keys",
]
max_window = "24h"
[standard]
on_violation = "drop_record"
detectors = ["private_key", "api_key", "url_credentials", "jwt", "email", "credit_card", "iban", "us_ssn", "phone", "ipv6"]
[redact]
builtin = ["private_key", "api_key", "url_credentials", "jwt", "credit_card"]
pseudonym_prefixes = ["chatcmpl-", "req_"]
[redact.context.us_ssn]
words = ["ssn", "ss#", "ss #", "ss no", "social security", "social-security", "social_security", "soc sec", "soc. sec", "taxpayer id", "tax id", "itin", "tin:", "tin #"]
not_words = ["ref", "reference", "order", "invoice", "case", "ticket", "batch", "part", "sku", "serial", "tracking", "account", "acct", "routing", "isbn", "phone", "tel", "fax", "call", "model", "lot"]
window = 32
[redact.context.phone]
words = ["phone", "tel", "tél", "telefon", "telephone", "téléphone", "mobile", "mobil", "handy", "cell", "call", "ring", "fax", "whatsapp", "sms", "text me", "reach me", "number", "portable", "celular", "contato", "ph:", "ph.", "mob:", "mob.", "m:", "t:", "電話", "携帯"]
not_words = ["tracking", "track", "parcel", "package", "shipment", "shipping", "waybill", "awb", "consignment", "usps", "fedex", "ups", "dhl", "sendungsnummer", "colis", "tracking number", "parcel number", "waybill number", "shipment number", "package number"]
window = 32
[redact.context.api_key]
words = ["openai", "api key", "api_key", "api-key", "apikey", "secret", "token", "key:", "key=", "key =", "key is", "bearer"]
window = 32
[redact.context.credit_card]
words = ["card", "credit", "debit", "visa", "mastercard", "amex", "american express", "discover", "maestro", "unionpay", "diners", "jcb", "pan", "cc", "ccnum", "cc_number", "payment", "paid", "pay with", "karte", "carte", "tarjeta", "cartão"]
not_words = ["tracking", "track", "usps", "ups", "fedex", "dhl", "parcel", "package", "shipment", "shipping", "waybill", "awb"]
window = 32
[redact.context.ipv4]
words = ["ip", "addr", "address", "host", "from", "client", "server", "remote", "connect", "peer", "src", "dst", "gateway", "@"]
not_words = ["version", "ver.", "ver ", "release", "build", "firmware", "fw ", "rev ", "revision", "sdk", "driver", "upgrade", "update", "patch", "bump", "pinned", "==", ">=", "<=", "~=", "^"]
window = 24
[standard.fields]
request_id       = { type = "string", pattern = "chatcmpl-[0-9a-f]+(-[0-9a-f]+)*", max_len = 96 }
t_arrival        = { type = "number", min = 0 }
t_completion     = { type = "number", min = 0 }
prompt_tokens    = { type = "integer", min = 0 }
output_tokens    = { type = "integer", min = 0 }
e2e_latency_s    = { type = "number", min = 0 }
ttft_s           = { type = "number", min = 0, nullable = true }
queue_wait_s     = { type = "number", min = 0 }
scheduler_family = { type = "string", one_of = ["ltr", "ltr-promptlen", "affinity", "trace", "tie", "hybrid", "fcfs"] }
priority_score   = { type = "number", nullable = true }
[standard.otlp]
span_names = ["llm_request"]
schema_url    = { type = "string", pattern = 'https://opentelemetry\.io/schemas/[0-9]{1,2}\.[0-9]{1,3}\.[0-9]{1,3}' }
scope_name    = { type = "string", pattern = '@?[A-Za-z][A-Za-z0-9_-]{0,63}([./][A-Za-z0-9_-]{1,64}){0,15}', max_len = 128, max_segments = 14, max_segment_len = 32, max_words = 10 }
scope_version = { type = "string", pattern = 'v?[0-9]{1,6}(\.[0-9]{1,6}){0,3}([a-z]{1,5}[0-9]{0,4})?([-+][0-9A-Za-z.]{1,32})?', max_len = 64, max_words = 2 }
event_name    = { type = "string", one_of = ["exception", "gen_ai.client.inference.operation.details", "gen_ai.evaluation.result", "gen_ai.content.prompt", "gen_ai.content.completion", "gen_ai.system.message", "gen_ai.user.message", "gen_ai.assistant.message", "gen_ai.tool.message", "gen_ai.choice", "rpc.message", "message", "first_scheduled", "first_token", "scheduler.admit"] }
span_name     = { type = "string", pattern = '(chat|generate_content|text_completion|embeddings|retrieval|create_agent|invoke_agent|execute_tool|search_memory|update_memory|delete_memory|create_memory_store|delete_memory_store|invoke_workflow|plan|create_memory|upsert_memory)( [A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127})?', max_len = 160, max_segments = 15, max_segment_len = 32, max_words = 7 }
max_resources   = 64
max_scopes      = 64
max_spans       = 2048
max_events      = 32
max_links       = 8
max_log_records = 2048
max_attributes  = 128
[standard.otlp.span_attributes]
"cf.request_id"                  = { type = "string", pattern = "chatcmpl-[0-9a-f]+(-[0-9a-f]+)*", max_len = 96 }
"gen_ai.usage.prompt_tokens"     = { type = "integer", min = 0 }
"gen_ai.usage.completion_tokens" = { type = "integer", min = 0 }
"gen_ai.usage.input_tokens"      = { type = "integer", min = 0 }
"gen_ai.usage.output_tokens"     = { type = "integer", min = 0 }
"cf.e2e_latency_s"               = { type = "number", min = 0 }
"cf.queue_wait_s"                = { type = "number", min = 0 }
"cf.ttft_s"                      = { type = "number", min = 0 }
"cf.priority_score"              = { type = "number" }
"cf.scheduler.family"            = { type = "string", one_of = ["ltr", "ltr-promptlen", "affinity", "trace", "tie", "hybrid", "fcfs"] }
"gen_ai.operation.name"          = { type = "string", one_of = ["chat", "generate_content", "text_completion", "embeddings", "retrieval", "create_agent", "invoke_agent", "execute_tool", "search_memory", "update_memory", "delete_memory", "create_memory_store", "delete_memory_store", "invoke_workflow", "plan", "create_memory", "upsert_memory"] }
"gen_ai.provider.name"           = { type = "string", pattern = '[a-z][a-z0-9_]{0,31}(\.[a-z][a-z0-9_]{0,31}){0,3}', max_len = 64, max_segments = 4, max_segment_len = 16, max_words = 3 }
"gen_ai.system"                  = { type = "string", pattern = '[a-z][a-z0-9_]{0,31}(\.[a-z][a-z0-9_]{0,31}){0,3}', max_len = 64, max_segments = 4, max_segment_len = 16, max_words = 3 }
"gen_ai.request.model"           = { type = "string", pattern = '[A-Za-z0-9@][A-Za-z0-9._:/@+-]{0,127}', max_len = 128, max_segments = 12, max_segment_len = 32, max_words = 6 }
"gen_ai.response.model"          = { type = "string", pattern = '[A-Za-z0-9@][A-Za-z0-9._:/@+-]{0,127}', max_len = 128, max_segments = 12, max_segment_len = 32, max_words = 6 }
"gen_ai.response.id"             = { type = "string", pattern = '[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}', max_len = 128 }
"gen_ai.response.finish_reasons" = { type = "array", max_items = 16, items = { type = "string", one_of = ["stop", "length", "content_filter", "tool_call", "tool_calls", "function_call", "error", "end_turn", "max_tokens", "stop_sequence", "tool_use", "pause_turn", "refusal", "guardrail_intervened", "content_filtered", "STOP", "MAX_TOKENS", "SAFETY", "RECITATION", "LANGUAGE", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "MALFORMED_FUNCTION_CALL", "OTHER", "FINISH_REASON_UNSPECIFIED", "COMPLETE", "ERROR", "TOOL_CALL"] } }
"gen_ai.request.max_tokens"      = { type = "integer", min = 0 }
"gen_ai.request.choice.count"    = { type = "integer", min = 0 }
"gen_ai.request.seed"            = { type = "integer" }
"gen_ai.request.temperature"     = { type = "number", min = 0, max = 2 }
"gen_ai.request.top_p"           = { type = "number", min = 0, max = 1 }
"gen_ai.request.top_k"           = { type = "number", min = 0 }
"gen_ai.request.frequency_penalty" = { type = "number", min = -2, max = 2 }
"gen_ai.request.presence_penalty"  = { type = "number", min = -2, max = 2 }
"gen_ai.usage.cache_read.input_tokens"     = { type = "integer", min = 0 }
"gen_ai.usage.cache_creation.input_tokens" = { type = "integer", min = 0 }
"gen_ai.usage.cache_write.input_tokens"    = { type = "integer", min = 0 }
"gen_ai.usage.reasoning.output_tokens"     = { type = "integer", min = 0 }
"gen_ai.usage.text.input_tokens" = { type = "integer", min = 0 }
"gen_ai.usage.image.input_tokens" = { type = "integer", min = 0 }
"gen_ai.usage.audio.input_tokens" = { type = "integer", min = 0 }
"gen_ai.usage.video.input_tokens" = { type = "integer", min = 0 }
"gen_ai.usage.text.output_tokens" = { type = "integer", min = 0 }
"gen_ai.usage.audio.output_tokens" = { type = "integer", min = 0 }
"gen_ai.request.stream"          = { type = "boolean" }
"gen_ai.output.type"             = { type = "string", one_of = ["text", "json", "image", "speech"] }
"gen_ai.response.time_to_first_chunk" = { type = "number", min = 0 }
"gen_ai.embeddings.dimension.count"   = { type = "integer", min = 0 }
"gen_ai.conversation.id"         = { type = "string", pattern = '[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}', max_len = 128 }
"gen_ai.agent.id"                = { type = "string", pattern = '[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}', max_len = 128 }
"gen_ai.agent.name"              = { type = "string", pattern = '[A-Za-z0-9][A-Za-z0-9_.-]{0,31}( [A-Za-z0-9][A-Za-z0-9_.-]{0,31}){0,2}', max_len = 64, max_segments = 4, max_segment_len = 24, max_words = 3 }
"gen_ai.tool.name"               = { type = "string", pattern = '[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}', max_len = 64, max_segments = 8, max_segment_len = 32, max_words = 5 }
"gen_ai.tool.type"               = { type = "string", one_of = ["function", "extension", "datastore"] }
"gen_ai.tool.call.id"            = { type = "string", pattern = '[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}', max_len = 128 }
"server.address"                 = { type = "string", pattern = '[A-Za-z0-9][A-Za-z0-9.-]{0,127}', max_len = 128, max_segments = 10, max_segment_len = 32, max_words = 8 }
"server.port"                    = { type = "integer", min = 0, max = 65535 }
"error.type"                     = { type = "string", pattern = '[A-Za-z0-9_][A-Za-z0-9_.:-]{0,127}(\$[A-Za-z0-9_]{1,64}){0,2}', max_len = 128, max_segments = 10, max_segment_len = 48, max_words = 7 }
[standard.otlp.resource_attributes]
"service.name"    = { type = "string", pattern = "[A-Za-z0-9_.-]{1,64}", max_segments = 6, max_segment_len = 32, max_words = 4 }
"service.version" = { type = "string", pattern = "[A-Za-z0-9_.+-]{1,64}", max_segments = 8, max_segment_len = 40, max_words = 2 }
"service.instance.id"    = { type = "string", pattern = "[A-Za-z0-9_.:-]{1,128}", max_segments = 10, max_segment_len = 40, max_words = 5 }
"telemetry.sdk.name"     = { type = "string", pattern = "[A-Za-z0-9_.-]{1,64}", max_segments = 3, max_segment_len = 24, max_words = 3 }
"telemetry.sdk.language" = { type = "string", one_of = ["cpp", "dotnet", "erlang", "go", "java", "nodejs", "php", "python", "ruby", "rust", "swift", "webjs"] }
"telemetry.sdk.version"  = { type = "string", pattern = "[A-Za-z0-9_.+-]{1,64}", max_segments = 6, max_segment_len = 24, max_words = 2 }
[standard.otlp.scope_attributes]
[standard.otlp.event_attributes]
[standard.otlp.link_attributes]
[standard.otlp.log_attributes]
"gen_ai.operation.name"          = { type = "string", one_of = ["chat", "generate_content", "text_completion", "embeddings", "retrieval", "create_agent", "invoke_agent", "execute_tool", "search_memory", "update_memory", "delete_memory", "create_memory_store", "delete_memory_store", "invoke_workflow", "plan", "create_memory", "upsert_memory"] }
"gen_ai.provider.name"           = { type = "string", pattern = '[a-z][a-z0-9_]{0,31}(\.[a-z][a-z0-9_]{0,31}){0,3}', max_len = 64, max_segments = 4, max_segment_len = 16, max_words = 3 }
"gen_ai.request.model"           = { type = "string", pattern = '[A-Za-z0-9@][A-Za-z0-9._:/@+-]{0,127}', max_len = 128, max_segments = 12, max_segment_len = 32, max_words = 6 }
"gen_ai.response.model"          = { type = "string", pattern = '[A-Za-z0-9@][A-Za-z0-9._:/@+-]{0,127}', max_len = 128, max_segments = 12, max_segment_len = 32, max_words = 6 }
"gen_ai.response.id"             = { type = "string", pattern = '[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}', max_len = 128 }
"gen_ai.response.finish_reasons" = { type = "array", max_items = 16, items = { type = "string", one_of = ["stop", "length", "content_filter", "tool_call", "tool_calls", "function_call", "error", "end_turn", "max_tokens", "stop_sequence", "tool_use", "pause_turn", "refusal", "guardrail_intervened", "content_filtered", "STOP", "MAX_TOKENS", "SAFETY", "RECITATION", "LANGUAGE", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "MALFORMED_FUNCTION_CALL", "OTHER", "FINISH_REASON_UNSPECIFIED", "COMPLETE", "ERROR", "TOOL_CALL"] } }
"gen_ai.usage.input_tokens"      = { type = "integer", min = 0 }
"gen_ai.usage.output_tokens"     = { type = "integer", min = 0 }
"error.type"                     = { type = "string", pattern = '[A-Za-z0-9_][A-Za-z0-9_.:-]{0,127}(\$[A-Za-z0-9_]{1,64}){0,2}', max_len = 128, max_segments = 10, max_segment_len = 48, max_words = 7 }
"server.address"                 = { type = "string", pattern = '[A-Za-z0-9][A-Za-z0-9.-]{0,127}', max_len = 128, max_segments = 10, max_segment_len = 32, max_words = 8 }
"server.port"                    = { type = "integer", min = 0, max = 65535 }
[standard.otlp.trace_state]
[standard.evidence.fields]
schema_version = { type = "string", one_of = ["latency-evidence.v1"], required = true }
trace_id = { type = "string", pattern = '^[A-Za-z0-9]{1,64}([_.:-][A-Za-z0-9]{1,64}){0,5}$', max_len = 128, required = true }
request_id = { type = "string", pattern = '^[A-Za-z0-9]{1,64}([_.:-][A-Za-z0-9]{1,64}){0,5}$', max_len = 128, required = true }
attempt = { type = "integer", min = 1, max = 1000, required = true }
parent_span_id = { type = "string", nullable = true, pattern = '^[A-Za-z0-9]{1,64}([_.:-][A-Za-z0-9]{1,64}){0,5}$', max_len = 128 }
span_id = { type = "string", pattern = '^[A-Za-z0-9]{1,64}([_.:-][A-Za-z0-9]{1,64}){0,5}$', max_len = 128 }
route_id = { type = "string", nullable = true, pattern = '^[A-Za-z0-9]{1,64}([_.:-][A-Za-z0-9]{1,64}){0,5}$', max_len = 128 }
model_id = { type = "string", nullable = true, pattern = '^[A-Za-z0-9]{1,64}([_.:/-][A-Za-z0-9]{1,64}){0,5}$', max_len = 128, max_words = 4 }
provider_request_id = { type = "string", nullable = true, pattern = '^[A-Za-z0-9]{1,64}([_.:-][A-Za-z0-9]{1,64}){0,5}$', max_len = 128 }
deployment_id = { type = "string", nullable = true, pattern = '^[A-Za-z0-9]{1,64}([_.:-][A-Za-z0-9]{1,64}){0,5}$', max_len = 128 }
region = { type = "string", nullable = true, pattern = '^[a-z0-9_-]{1,64}$', max_segments = 4, max_words = 3 }
service = { type = "string", nullable = true, pattern = '^[a-z][a-z0-9_.-]{0,63}$', max_segments = 6, max_words = 4 }
component = { type = "string", nullable = true, pattern = '^[a-z][a-z0-9_.-]{0,63}$', max_segments = 6, max_words = 4 }
stage = { type = "string", nullable = true, pattern = '^[a-z][a-z0-9_]{0,63}$', max_segments = 6, max_words = 4 }
event_name = { type = "string", nullable = true, pattern = '^[a-z][a-z0-9_]{0,63}$', max_segments = 8, max_words = 6 }
start_timestamp_utc = { type = "string", nullable = true, pattern = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|\+00:00)$' }
end_timestamp_utc = { type = "string", nullable = true, pattern = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|\+00:00)$' }
duration = { type = "number", nullable = true }
duration_unit = { type = "string", nullable = true, one_of = ["ns", "us", "ms", "s"] }
clock_source = { type = "string", one_of = ["local_monotonic", "local_monotonic_with_utc_correlation", "utc_wall_clock", "provider_native"] }
sync_status = { type = "string", nullable = true, one_of = ["documented_by_deployment", "ntp_synchronized", "ntp_synced", "ptp_synchronized", "unsynchronized", "unknown"] }
status = { type = "string", one_of = ["completed", "partial", "incomplete", "failed", "error", "cancelled", "timeout"], required = true }
error_reason = { type = "string", nullable = true, one_of = ["provider_error", "gateway_error", "timeout", "connection_loss", "cache_error", "rate_limited", "internal_error"] }
cancellation_reason = { type = "string", nullable = true, one_of = ["client_cancellation", "gateway_cancellation", "timeout", "connection_loss"] }
[standard.evidence.fields.events]
type = "array"
required = true
max_items = 256
[standard.evidence.fields.events.items]
type = "object"
[standard.evidence.fields.events.items.fields]
stage = { type = "string", pattern = '^[a-z][a-z0-9_]{0,63}$', max_segments = 6, max_words = 4 }
event_name = { type = "string", pattern = '^[a-z][a-z0-9_]{0,63}$', max_segments = 8, max_words = 6, required = true }
timestamp_utc = { type = "string", pattern = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|\+00:00)$' }
monotonic_ns = { type = "integer", min = 0 }
service = { type = "string", pattern = '^[a-z][a-z0-9_.-]{0,63}$', max_segments = 6, max_words = 4 }
component = { type = "string", nullable = true, pattern = '^[a-z][a-z0-9_.-]{0,63}$', max_segments = 6, max_words = 4 }
[standard.evidence.fields.derived_intervals]
type = "array"
required = true
max_items = 64
[standard.evidence.fields.derived_intervals.items]
type = "object"
[standard.evidence.fields.derived_intervals.items.fields]
name = { type = "string", pattern = '^[a-z][a-z0-9_]{0,63}$', max_segments = 8, max_words = 6, required = true }
start_event = { type = "string", pattern = '^[a-z][a-z0-9_]{0,63}$', max_segments = 8, max_words = 6, required = true }
end_event = { type = "string", pattern = '^[a-z][a-z0-9_]{0,63}$', max_segments = 8, max_words = 6, required = true }
duration = { type = "number", required = true }
duration_unit = { type = "string", one_of = ["ns", "us", "ms", "s"], required = true }
"#;
