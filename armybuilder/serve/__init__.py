"""``armybuilder serve``: the editor in a browser, on textual-serve (the optional serve extra).

Each browser tab drives an editor process of its own (:mod:`armybuilder.tui.served`) that is
confined to the browser's workspace folder. The server holds no editing code; it admits
the holder of the secret token, maps a browser to its workspace, starts, bounds and stops
the editor processes, and carries downloads and uploads.

* :mod:`.command` — the command line (standard library only until it runs);
* :mod:`.gate` — the secret token: checked on every request, in constant time;
* :mod:`.workspaces` — one folder per browser, uploads into it;
* :mod:`.sessions` — the editor processes: started, counted, idle ones closed, all stopped;
* :mod:`.server` — the web application (pages, websocket, downloads, uploads).
"""
