// Why each page in docs/parse-parity.md still differs from parse5 (keyed `dev/<id>` or `readability/<slug>`).
export const PARITY_EXPLANATIONS: Readonly<Record<string, string>> = {};
