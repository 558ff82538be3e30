;;; emacs_eglot_test.el --- docs/editors.md's Emacs set-up in a real Emacs -*- lexical-binding: t -*-

;; Run by emacs_eglot.sh as `emacs --batch -l emacs_eglot_test.el'. It loads the doc's elisp
;; block (SRCLS_INIT), opens a bad example (in SRCLS_WORKDIR) the way `C-x C-f' does, and
;; asserts what a person gets from eglot: the diagnostics in Flymake (those of `srcls --check'
;; with the same settings), keys and values from `completion-at-point', the hover text in
;; ElDoc, and the typo's quick fix applied. Each wait is bounded; exit 0 when every check
;; passed, 1 otherwise, 77 when eglot is missing.

(require 'cl-lib)
(require 'json)
(require 'subr-x)

(defconst srcls-test-timeout 20 "Seconds any one wait may take.")
(defvar srcls-test-failures 0)

(defun srcls-test-out (format-string &rest args)
  "Print a line on stdout (batch `message' goes to stderr)."
  (princ (concat (apply #'format format-string args) "\n")))

(defmacro srcls-test (name &rest body)
  "Run BODY as the test NAME: ok, or not ok with the error."
  (declare (indent 1))
  `(condition-case err
       (progn ,@body (srcls-test-out "ok - %s" ,name))
     (error (setq srcls-test-failures (1+ srcls-test-failures))
            (srcls-test-out "not ok - %s\n  %s" ,name (error-message-string err)))))

(defun srcls-test-check (value format-string &rest args)
  "Signal an error saying FORMAT-STRING when VALUE is nil."
  (unless value (error "%s" (apply #'format format-string args)))
  value)

(defun srcls-test-idle ()
  "What the command loop does once a command is over and Emacs waits for a key.
It runs `post-command-hook' (where `eglot-ensure' connects) and, while no key comes, the idle
timers (where eglot sends the buffer's changes); a batch Emacs has no command loop."
  (run-hooks 'post-command-hook)
  (dolist (timer (copy-sequence timer-idle-list))
    (timer-event-handler timer)))

(defun srcls-test-wait (what predicate)
  "Let Emacs run, idle, until PREDICATE returns non-nil; return it.
Fail after `srcls-test-timeout' seconds, saying WHAT."
  (let ((deadline (+ (float-time) srcls-test-timeout))
        value)
    (while (and (not (setq value (funcall predicate)))
                (< (float-time) deadline))
      (srcls-test-idle)
      (accept-process-output nil 0.05))
    (or value (error "Timed out after %d s waiting for %s" srcls-test-timeout what))))

(defun srcls-test-line (text)
  "Go to the first line holding TEXT, at its start; return the point."
  (goto-char (point-min))
  (srcls-test-check (search-forward text nil t) "no line holds %s" text)
  (goto-char (match-beginning 0)))

(unless (require 'eglot nil t)
  (srcls-test-out "SKIP: eglot is not available")
  (kill-emacs 77))

(defvar srcls-test-init (getenv "SRCLS_INIT"))
(defvar srcls-test-file
  (expand-file-name "bad-object-storage.source.json" (getenv "SRCLS_WORKDIR")))
(require 'lisp-mnt)
(srcls-test-out "eglot %s" (or (ignore-errors (lm-version (locate-library "eglot.el" t))) "?"))

;; The doc's lines, as a user's init.el holds them.
(load srcls-test-init nil t)

;;; The findings `srcls --check' reports, with the severities the doc's settings give.

(defun srcls-test-expected-diagnostics ()
  "The diagnostics of `srcls --check' for the file, as (LINE TYPE TEXT), sorted.
The doc's `eglot-workspace-configuration' goes to --check as a srcls.json's rules."
  (let* ((settings (plist-get (default-value 'eglot-workspace-configuration) :srcls))
         (config (make-temp-file "srcls-config" nil ".json"
                                 (json-encode `(:rules ,(plist-get settings :severity)))))
         (output (with-temp-buffer
                   (call-process "srcls" nil '(t nil) nil "--check" "--format" "json"
                                 "--config" config srcls-test-file)
                   (buffer-string)))
         (report (json-parse-string output :object-type 'plist :array-type 'list))
         (diagnostics (plist-get (car (plist-get report :files)) :diagnostics)))
    (delete-file config)
    (srcls-test-check diagnostics "srcls --check found nothing:\n%s" output)
    (sort (mapcar (lambda (d)
                    (list (1+ (plist-get (plist-get (plist-get d :range) :start) :line))
                          (pcase (plist-get d :severity)
                            ("error" 'eglot-error) ("warning" 'eglot-warning) (_ 'eglot-note))
                          (format "[%s]: %s" (plist-get d :code) (plist-get d :message))))
                  diagnostics)
          (lambda (a b) (string< (format "%S" a) (format "%S" b))))))

(defun srcls-test-flymake-diagnostics ()
  "Flymake's diagnostics in the buffer, as (LINE TYPE TEXT), TEXT from its code on, sorted."
  (sort (mapcar (lambda (d)
                  (let ((text (flymake-diagnostic-text d)))
                    (list (line-number-at-pos (flymake-diagnostic-beg d))
                          (flymake-diagnostic-type d)
                          (if (string-match "\\[[a-z-]+\\]: " text)
                              (substring text (match-beginning 0))
                            text))))
                (flymake-diagnostics))
        (lambda (a b) (string< (format "%S" a) (format "%S" b)))))

;;; Opening the file: the mode from auto-mode-alist, eglot started by the mode's hook.

(defvar srcls-test-buffer nil)

(srcls-test "the doc's lines give a .source.json file srcls-json-mode and start eglot"
  (setq srcls-test-buffer (find-file srcls-test-file))
  (srcls-test-check (eq major-mode 'srcls-json-mode) "major mode: %s" major-mode)
  ;; eglot-ensure connects when the command that opened the file is over (srcls-test-idle).
  (srcls-test-wait "eglot to manage the buffer"
                   (lambda () (and (eglot-current-server) eglot--managed-mode)))
  (srcls-test-check (equal (process-command (jsonrpc--process (eglot-current-server)))
                           '("srcls" "--stdio"))
                    "server command: %S" (process-command (jsonrpc--process (eglot-current-server)))))

(unless (and srcls-test-buffer (eglot-current-server))
  (srcls-test-out "eglot did not connect; no further test can run")
  (kill-emacs 1))

;;; Diagnostics

(srcls-test "Flymake shows the diagnostics srcls --check reports, with the doc's severities"
  (let ((expected (srcls-test-expected-diagnostics)) got)
    (srcls-test-check (assoc 7 expected) "the typo on line 7 is expected: %S" expected)
    (srcls-test-check (eq (nth 1 (assoc 7 expected)) 'eglot-error)
                      "the doc's settings make unknown-field an error: %S" expected)
    (condition-case nil
        (srcls-test-wait "Flymake's diagnostics"
                         (lambda () (equal (setq got (srcls-test-flymake-diagnostics)) expected)))
      (error (error "Flymake has\n  %S\nsrcls --check has\n  %S" got expected)))))

;;; Completion

(defun srcls-test-capf ()
  "The completion at point, as `completion-at-point' asks for it: (START END TABLE . PROPS)."
  (srcls-test-check (run-hook-wrapped 'completion-at-point-functions
                                      (lambda (f) (and (functionp f) (funcall f))))
                    "no completion at point"))

(srcls-test "completion-at-point on a new line in config: the missing keys, required first"
  (srcls-test-line "\"credentialType\"")
  (insert "\"\"\n    ")
  (backward-char 6)                     ; between the quotes, as electric-pair leaves them
  (let* ((capf (srcls-test-capf))
         (prefix (buffer-substring-no-properties (nth 0 capf) (point)))
         (candidates (all-completions prefix (nth 2 capf)))
         (sort-function (completion-metadata-get
                         (completion-metadata prefix (nth 2 capf) nil) 'display-sort-function))
         (sorted (if sort-function (funcall sort-function (copy-sequence candidates)) candidates)))
    (dolist (key '("accessKey" "rootPath" "secure" "enableAsync"))
      (srcls-test-check (member key candidates) "%s not offered: %S" key candidates))
    (dolist (key '("credentialType" "accessSecret" "isCachingEnabled"))
      (srcls-test-check (not (member key candidates)) "%s is there, yet offered: %S" key candidates))
    (srcls-test-check (equal (car sorted) "accessKey") "first: %S" sorted))
  (revert-buffer t t))

(srcls-test "completion-at-point inside auto-paired quotes: one pair of quotes"
  (srcls-test-line "\"ACCESS_KEY\"")
  (delete-region (point) (line-end-position))
  (insert "\"AC\",")
  (backward-char 2)                     ; "AC|",
  (let ((completion-auto-help nil))
    (completion-at-point))
  (let ((line (buffer-substring-no-properties (line-beginning-position) (line-end-position))))
    (srcls-test-check (equal line "    \"credentialType\": \"ACCESS_KEY\",") "the line: %S" line))
  (revert-buffer t t))

;;; Hover through ElDoc

(srcls-test "ElDoc shows srcls's hover for a key"
  (srcls-test-line "\"credentialType\"")
  (forward-char 3)
  (let* ((hover (jsonrpc-request (eglot-current-server) :textDocument/hover
                                 (eglot--TextDocumentPositionParams)))
         (contents (plist-get hover :contents))
         (server-text (string-trim (if (stringp contents) contents
                                     (or (plist-get contents :value) ""))))
         docs)
    (srcls-test-check (string-match-p "ACCESS_KEY" server-text) "srcls's hover: %S" server-text)
    (run-hook-with-args 'eldoc-documentation-functions
                        (lambda (doc &rest _) (when (stringp doc) (push doc docs)) t))
    (srcls-test-wait "the ElDoc text" (lambda () docs))
    (srcls-test-check (cl-some (lambda (doc) (string-search server-text doc)) docs)
                      "ElDoc has %S\nsrcls's hover is %S" docs server-text)))

;;; A quick fix

(srcls-test "the typo's quick fix through eglot-code-actions renames acessKey to accessKey"
  (srcls-test-line "\"acessKey\"")
  (forward-char 2)
  (let (offered default)
    ;; The person picks the default (the preferred action) in the menu eglot offers.
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &optional _pred _require _initial _hist def &rest _)
                 (setq offered (mapcar #'car collection) default def)
                 def)))
      (let ((last-nonmenu-event ?\r))   ; invoked from the keyboard, as M-x does
        (call-interactively #'eglot-code-actions)))
    (srcls-test-check (member "Rename to \"accessKey\"" offered) "the rename offered: %S" offered)
    (srcls-test-check (equal default "Rename to \"accessKey\"")
                      "the rename is the preferred action: %S" default))
  (let ((text (buffer-string)))
    (srcls-test-check (string-search "\"accessKey\": \"AKIAEXAMPLE\"" text) "the buffer:\n%s" text)
    (srcls-test-check (not (string-search "acessKey" text)) "the typo is still there:\n%s" text))
  ;; The server sees the edit: the missing accessKey and the unknown field are gone.
  (let (texts)
    (condition-case nil
        (srcls-test-wait "the diagnostics after the fix"
                         (lambda ()
                           (setq texts (mapcar #'flymake-diagnostic-text (flymake-diagnostics)))
                           (and texts
                                (not (cl-some (lambda (s)
                                                (string-match-p
                                                 "unknown-field\\|conditional-required" s))
                                              texts)))))
      (error (error "After the fix, Flymake still has %S" texts))))
  (set-buffer-modified-p nil))

(srcls-test-out "%s" (if (zerop srcls-test-failures) "all passed"
                       (format "%d failed" srcls-test-failures)))
(kill-emacs (if (zerop srcls-test-failures) 0 1))

;;; emacs_eglot_test.el ends here
