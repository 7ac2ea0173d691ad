// Language server entry point (placeholder: implemented by the foundation work).
import './lsp/main';
