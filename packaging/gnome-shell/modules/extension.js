// The entry point for GNOME Shell 45 and later, which load an extension as an ES module. The
// indicator is indicator.js, shared with the GNOME 43-44 entry point. Only GNOME 43 is tested
// (scripts/suites/gnome-shell.sh); this file follows GNOME 45's documented extension API.
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

import {createIndicator} from './indicator.js';

export default class HeadlinesExtension extends Extension {
    enable() {
        this._indicator = createIndicator({PanelMenu, PopupMenu});
        Main.panel.addToStatusArea(this.uuid, this._indicator);
    }

    disable() {
        this._indicator?.destroy();
        this._indicator = null;
    }
}
