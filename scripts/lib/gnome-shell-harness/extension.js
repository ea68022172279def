// For scripts/suites/gnome-shell.sh only, never installed. It turns on unsafe mode, which GNOME
// Shell 43 has no command-line switch for (Looking Glass does the same), so that the suite can
// use org.gnome.Shell.Eval; and it gives the suite `headlinesProbe`: what the Headlines indicator
// shows, and real pointer clicks and wheel turns on it through a Clutter virtual pointer, which
// go through the seat's event pipeline like a mouse's.
/* exported init, enable, disable */
const {Clutter, GLib, St} = imports.gi;
const Main = imports.ui.main;

const UUID = 'headlines@headlines.org';
let pointer = null;

function indicator() {
    return Main.panel.statusArea[UUID] ?? null;
}

// An St.Label as the screen shows it: its text, the text Pango lays out (the same unless markup
// in it was read) and whether markup is on.
function shown(label) {
    return {text: label.text, layout: label.clutter_text.get_layout().get_text(), markup: label.clutter_text.use_markup};
}

function menuItems() {
    return indicator()?.menu._getMenuItems().filter(item => item.label) ?? [];
}

// Moves the pointer to the middle of `actor` and returns the time to send its events at.
function pointAt(actor) {
    pointer ??= Clutter.get_default_backend().get_default_seat().create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
    const [x, y] = actor.get_transformed_position();
    const [width, height] = actor.get_transformed_size();
    const time = GLib.get_monotonic_time();
    pointer.notify_absolute_motion(time, x + width / 2, y + height / 2);
    return time;
}

function click(actor) {
    if (!actor)
        return false;
    const time = pointAt(actor);
    pointer.notify_button(time + 10000, Clutter.BUTTON_PRIMARY, Clutter.ButtonState.PRESSED);
    pointer.notify_button(time + 60000, Clutter.BUTTON_PRIMARY, Clutter.ButtonState.RELEASED);
    return true;
}

const probe = {
    ready: () => indicator() !== null,
    label: () => {
        const label = indicator()?.get_children().find(actor => actor instanceof St.Label);
        return label ? shown(label) : null;
    },
    // Each menu item's label, with the other labels in its row (a headline's source and age).
    items: () => menuItems().map(item => ({
        ...shown(item.label),
        details: item.get_children().filter(a => a instanceof St.Label && a !== item.label && a !== item._ornamentLabel)
            .map(a => a.text),
    })),
    menuOpen: () => indicator()?.menu.isOpen ?? false,
    clickIndicator: () => click(indicator()),
    closeMenu: () => {
        indicator().menu.close();
        return true;
    },
    clickItem: text => click(menuItems().find(item => item.label.text === text)),
    wheel: down => {
        const time = pointAt(indicator());
        pointer.notify_discrete_scroll(time + 10000, down ? Clutter.ScrollDirection.DOWN : Clutter.ScrollDirection.UP,
            Clutter.ScrollSource.WHEEL);
        return true;
    },
    // The desktop without the overview the shell starts with and without the notification that
    // unsafe mode is on, for a screenshot.
    tidy: () => {
        Main.overview.hide();
        Main.messageTray.getSources().forEach(source => source.destroy());
        return true;
    },
    // The rectangle around the open menu and the panel above it, from the clock on (whole):
    // [x, y, width, height].
    menuArea: () => {
        const box = indicator().menu.actor;
        const [x, y] = box.get_transformed_position();
        const [width, height] = box.get_transformed_size();
        const [clock] = Main.panel.statusArea.dateMenu.get_transformed_position();
        const left = Math.max(0, Math.floor(Math.min(x, clock)) - 16);
        return [left, 0, Math.min(global.stage.width, Math.ceil(x + width) + 16) - left, Math.ceil(y + height) + 16];
    },
};

function init() {}

function enable() {
    global.context.unsafe_mode = true;
    globalThis.headlinesProbe = probe;
}

function disable() {
    delete globalThis.headlinesProbe;
    pointer = null;
    global.context.unsafe_mode = false;
}
