// VS Code client entry point (placeholder: implemented by the foundation work).
export function activate(): void {}
export function deactivate(): void {}
