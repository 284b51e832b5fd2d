"""The dialogs' look, kept out of the editor's stylesheet (``app.tcss``).

Textual parses and matches every rule of the application's stylesheet when it first
styles the editor; the dialogs' rules wait until a dialog class is first shown, as the
``DEFAULT_CSS`` of :class:`~armybuilder.tui.screens.modals.Dialog` and of the home
screen's new-list form. Scoped to those screens, so they style nothing else.
"""

DIALOG_CSS = """
.dialog {
    width: 80%;
    max-width: 100;
    height: auto;
    max-height: 90%;
    border: thick $accent;
    background: $surface;
    padding: 0 1;
}
.dialog.tall { height: 90%; }
.dialog-title { height: auto; margin-bottom: 1; }
.dialog-subtitle { height: auto; margin-bottom: 1; }
.dialog-body { height: auto; max-height: 20; }
.dialog .form { height: auto; max-height: 24; }
.dialog TextArea { height: 6; }
.dialog #menu { height: auto; max-height: 24; border: none; text-wrap: wrap; }  /* long choices wrap, never cut */
.dialog #files { height: 1fr; }
#form-error { height: auto; }
.buttons { height: auto; align-horizontal: right; margin-top: 1; }
.dialog.tall .form { height: 1fr; max-height: 100%; }
.dialog Label { margin-top: 0; color: $text-muted; }
.dialog .form Select, .dialog .form Input, .dialog .form TextArea { width: 100%; }
.buttons Button { margin-left: 2; min-width: 10; }
"""
