// The entry point for GNOME Shell 43 and 44, which load an extension as a script (imports.*).
// The indicator itself is the ES module indicator.js, shared with the GNOME 45 entry point; a
// script loads a module only by import(), which resolves later.
/* exported init, enable, disable */
const ExtensionUtils = imports.misc.extensionUtils;
const Main = imports.ui.main;
const PanelMenu = imports.ui.panelMenu;
const PopupMenu = imports.ui.popupMenu;

const Me = ExtensionUtils.getCurrentExtension();
let indicator = null;
let enabled = false;

function init() {}

function enable() {
    enabled = true;
    import(Me.dir.get_child('indicator.js').get_uri()).then(module => {
        // Disabled (or enabled again) while the module loaded: only the last enable adds one.
        if (!enabled || indicator)
            return;
        indicator = module.createIndicator({PanelMenu, PopupMenu});
        Main.panel.addToStatusArea(Me.metadata.uuid, indicator);
    }).catch(error => logError(error, 'headlines: the indicator did not load'));
}

function disable() {
    enabled = false;
    indicator?.destroy();
    indicator = null;
}
