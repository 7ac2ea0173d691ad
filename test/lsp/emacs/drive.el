;;; drive.el --- drive Emacs's eglot against the server as a user would -*- lexical-binding: t -*-
;; test/lsp/emacs.test.ts loads the README's eglot block (init.el), then this file with FILE and OUT
;; bound; what eglot saw is written to OUT as JSON.
(require 'json)
(require 'cl-lib)
(require 'yaml-mode)
(require 'eglot)
(require 'xref)

(defvar FILE)
(defvar OUT)
(defvar drive--out (list))
(defvar drive--diags nil "Diagnostic codes of the last publishDiagnostics for FILE.")
(defvar drive--messages nil)

(defun drive--put (key value) (setq drive--out (plist-put drive--out key value)))
(defun drive--wait (pred &optional secs)
  (let ((deadline (+ (float-time) (or secs 20))))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall pred)))

;; What the server publishes, as eglot receives it (flymake shows the same messages).
(advice-add 'eglot-handle-notification :before
            (lambda (_server method &rest params)
              (when (eq method 'textDocument/publishDiagnostics)
                (setq drive--diags
                      (sort (mapcar (lambda (d) (format "%s" (plist-get d :code)))
                                    (append (plist-get params :diagnostics) nil))
                            #'string<)))))
(advice-add 'eglot--message :before (lambda (fmt &rest args) (push (apply #'format fmt args) drive--messages)))

(defun drive--goto (needle &optional delta)
  (goto-char (point-min))
  (search-forward needle)
  (goto-char (+ (match-beginning 0) (or delta 0))))

(defun drive--pick (pattern)
  "Run eglot-code-actions at point as `M-x eglot-code-actions' does, picking the action matching PATTERN."
  (let ((picked nil))
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt items &rest _)
                 (let ((hit (cl-find-if (lambda (it) (string-match-p pattern (car it))) items)))
                   (setq picked (car hit))
                   (car hit)))))
      (let ((last-nonmenu-event 0))
        (eglot-code-actions (line-beginning-position) (line-end-position) nil t)))
    picked))

(condition-case err
    (progn
      (find-file FILE)
      (drive--put :mode (symbol-name major-mode))
      ;; What `M-x eglot` does (eglot-ensure waits for a command loop that batch mode has not).
      (apply #'eglot (eglot--guess-contact))
      (drive--wait (lambda () (eglot-current-server)))
      (drive--put :attached (if (eglot-current-server) t :json-false))
      ;; The settings arrive after the first diagnostics (pulled, or pushed by eglot's connect hook).
      (drive--wait (lambda () (and (member "appset/unknown-field" drive--diags)
                                   (member "rollout/progressive-syncs-disabled" drive--diags))))
      (drive--put :diagnostics (vconcat drive--diags))
      ;; flymake has the diagnostics too (code actions send them back to the server)
      (drive--wait (lambda () (flymake-diagnostics)) 10)
      (drive--put :flymake (length (flymake-diagnostics)))
      (let ((server (eglot-current-server)))
        ;; hover on a template parameter and on a field
        (drive--goto "{{.cluster}}" 4)
        (drive--put :hover (format "%s" (plist-get (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams)) :contents)))
        (drive--goto "goTemplate:" 2)
        (drive--put :fieldHover (format "%s" (plist-get (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams)) :contents)))
        ;; completion inside {{ }}, through completion-at-point's table
        (drive--goto "{{.url}}" 3)
        (let* ((capf (eglot-completion-at-point)))
          (drive--put :completion (vconcat (all-completions "" (nth 2 capf)))))
        ;; go to definition through xref
        (drive--goto "{{.url}}" 4)
        (let ((defs (xref-backend-definitions 'eglot (xref-backend-identifier-at-point 'eglot))))
          (drive--put :definitions
                      (vconcat (mapcar (lambda (x) (let ((loc (xref-item-location x)))
                                                     (format "%s" (xref-file-location-line loc))))
                                       defs))))
        ;; a "did you mean" quick fix that edits
        (drive--goto "projct:")
        (drive--put :fixTitle (or (drive--pick "project") :json-false))
        (drive--wait (lambda () (save-excursion (goto-char (point-min)) (search-forward "project: default" nil t))) 5)
        (drive--goto "roject:")
        (drive--put :fixedLine (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
        ;; a quick fix that runs a server command (progressive syncs are disabled by the settings)
        (drive--wait (lambda () (not (member "appset/unknown-field" drive--diags))) 10)
        (drive--wait (lambda () (flymake-diagnostics (save-excursion (drive--goto "strategy:") (point)))) 10)
        (drive--goto "strategy:" 2)
        (drive--put :commandFix (or (drive--pick "progressiveSyncs") :json-false))
        (drive--wait (lambda () (not (member "rollout/progressive-syncs-disabled" drive--diags))) 10)
        (drive--put :afterCommand (vconcat drive--diags))
        ;; rename a parameter (the list key and its uses)
        (drive--goto "{{.url}}" 4)
        (eglot-rename "endpoint")
        (drive--put :renamed (vconcat (let (hits) (goto-char (point-min))
                                           (while (re-search-forward "endpoint" nil t) (push (buffer-substring (line-beginning-position) (line-end-position)) hits))
                                           (nreverse hits))))
        ;; the preview, through the README's M-x appset-preview (a server command returning text) and as the custom request
        (let ((uri (eglot--path-to-uri (buffer-file-name))))
          (appset-preview)
          (drive--put :previewCommand (with-current-buffer "*appset preview*" (buffer-string)))
          (drive--put :previewRequest (plist-get (jsonrpc-request server :appsetTools/preview (list :uri uri)) :apps)))
        (drive--put :messages (vconcat drive--messages))))
  (error (drive--put :error (format "%S" err))))

(with-temp-file OUT (insert (json-encode drive--out)))
(kill-emacs 0)
