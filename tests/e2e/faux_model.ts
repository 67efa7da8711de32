/**
 * A test-only pi extension: a scripted model from pi's own model library.
 *
 * `registerFauxProvider` (in `@mariozechner/pi-ai`, next to pi) plays back
 * `fauxAssistantMessage`s; this extension registers it with pi as provider
 * `faux`, model `faux-model`, so the real pi binary runs a turn with no network
 * at all: `pi -e tests/e2e/faux_model.ts --provider faux --model faux-model`.
 *
 * FAUX_SCRIPT names a JSON file: a list of steps, `{"bash": command}` for a bash
 * tool call, `{"text": words}` to answer and stop; once it runs out the model
 * answers "done". FAUX_LOG names a file that gets, after every model call, the
 * text of each tool result pi has sent the model so far (a JSON list).
 */

import { readFileSync, writeFileSync } from "node:fs";
import { fauxAssistantMessage, fauxToolCall, getApiProvider, registerFauxProvider } from "@mariozechner/pi-ai";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

type Step = { bash: string } | { text: string };

export default function (pi: ExtensionAPI) {
	const script = JSON.parse(readFileSync(required("FAUX_SCRIPT"), "utf8")) as Step[];
	const log = required("FAUX_LOG");
	const faux = registerFauxProvider({ provider: "faux", models: [{ id: "faux-model" }] });
	faux.setResponses(
		Array.from({ length: script.length + 20 }, () => (context: { messages: unknown[] }) => {
			writeFileSync(log, JSON.stringify(toolResults(context.messages)));
			const step = script[faux.state.callCount - 1] ?? { text: "done" };
			return "bash" in step
				? fauxAssistantMessage(fauxToolCall("bash", { command: step.bash }), { stopReason: "toolUse" })
				: fauxAssistantMessage(step.text);
		}),
	);
	// pi keeps its own registry of model APIs: hand it the faux stream itself.
	const registered = getApiProvider(faux.api);
	if (!registered) throw new Error("registerFauxProvider registered no API");
	pi.registerProvider("faux", {
		baseUrl: "http://127.0.0.1:9",
		apiKey: "faux",
		api: faux.api,
		streamSimple: registered.streamSimple,
		models: [{ id: "faux-model", name: "faux", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128000, maxTokens: 16384 }],
	});
}

function required(name: string): string {
	const value = process.env[name];
	if (!value) throw new Error(`faux_model.ts needs ${name}`);
	return value;
}

function toolResults(messages: unknown[]): string[] {
	return (messages as { role?: string; content?: unknown }[])
		.filter((m) => m.role === "toolResult")
		.map((m) => (Array.isArray(m.content) ? m.content.map((c: { text?: string }) => c.text ?? "").join("\n") : String(m.content)));
}
