/** What the example conformance server (`examples/conformance-server.ts`) offers, for the interop tests. */
export const FIXTURE_SERVER_INFO = { name: "mcp-gen-conformance-fixture", version: "1.0.0" };

/** Its tools, in the order `tools/list` gives them. */
export const FIXTURE_TOOL_NAMES = [
  "test_simple_text",
  "test_image_content",
  "test_audio_content",
  "test_embedded_resource",
  "test_multiple_content_types",
  "test_error_handling",
  "test_tool_with_progress",
  "test_missing_capability",
  "test_streaming_elicitation",
  "test_logging_tool",
  "test_trigger_tool_change",
  "test_trigger_prompt_change",
  "test_input_required_result_elicitation",
  "test_input_required_result_sampling",
  "test_input_required_result_list_roots",
  "test_input_required_result_request_state",
  "test_input_required_result_multiple_inputs",
  "test_input_required_result_multi_round",
  "test_input_required_result_tampered_state",
  "test_input_required_result_capabilities",
];
