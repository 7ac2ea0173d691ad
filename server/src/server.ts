import './lsp/main';
