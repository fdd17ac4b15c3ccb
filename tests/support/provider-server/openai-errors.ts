// OpenAI's JSON error body, the same for Chat Completions and Responses (API reference, "Error
// codes"; @ai-sdk/openai's openaiErrorDataSchema): {error: {message, type, param, code}}.
export function openAiErrorBody(status: number, message: string) {
  const [type, code] = status === 429 ? ['requests', 'rate_limit_exceeded'] : status >= 500 ? ['server_error', null] : ['invalid_request_error', null];
  return { error: { message, type, param: null, code } };
}
