// The headlines host's headline in GNOME Shell's top bar, and a menu of its headlines. Both entry
// points load this one ES module: legacy/extension.js (GNOME 43-44) and modules/extension.js
// (GNOME 45 and later); they hand in the shell's own modules, which the two versions import in
// different ways.
//
// Everything comes from the host over org.headlines.Headlines1, and every call is asynchronous,
// so a slow or stuck host never blocks the shell. This code fetches and parses no feed, reads no
// file and starts no process: the bus starts the host (D-Bus activation) on the first call.
// Every text is set as plain text (St.Label's `text`), so a title shows as written and no markup
// in it is ever read.
import Clutter from 'gi://Clutter';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import St from 'gi://St';

const BUS_NAME = 'org.headlines.Headlines';
const OBJECT_PATH = '/org/headlines/Headlines';
const INTERFACE = 'org.headlines.Headlines1';
// The default widget ([widget NAME] sections are the bars' business).
const WIDGET = '';
// Generous: the first call may wait for the bus to start the host.
const CALL_TIMEOUT_MS = 25000;
// The menu lists this many headlines at most, so that it fits on a screen.
const MENU_HEADLINES = 15;
// [bar] max-length's default, until the host says what it is.
const DEFAULT_MAX_LENGTH = 80;
const SOURCE_LENGTH = 40;
export const NO_HOST = 'Headlines: no host could start (headlines doctor says why)';

// `text` cut to `max` characters, as the host cuts a bar's title: at the last word boundary
// when it is past the middle, with an ellipsis.
export function cut(text, max) {
    const chars = Array.from(text);
    if (chars.length <= max || max <= 1)
        return text;
    const head = chars.slice(0, max - 1).join('');
    if (chars[max - 1] === ' ')
        return `${head.trim()}…`;
    const space = head.lastIndexOf(' ');
    if (space >= 0 && Array.from(head.slice(0, space)).length >= Math.floor(max / 2))
        return `${head.slice(0, space).trim()}…`;
    return `${head}…`;
}

// How long ago `published` (Unix seconds) was, in a few characters.
export function age(published, now) {
    const seconds = now - published;
    if (!(published > 0) || seconds < 0)
        return '';
    if (seconds < 60)
        return 'now';
    if (seconds < 3600)
        return `${Math.floor(seconds / 60)} min`;
    if (seconds < 86400)
        return `${Math.floor(seconds / 3600)} h`;
    return `${Math.floor(seconds / 86400)} d`;
}

// The bus's own errors for a name nothing provides or whose program failed to start.
function noHost(error) {
    const name = error instanceof GLib.Error ? Gio.DBusError.get_remote_error(error) : null;
    return name === 'org.freedesktop.DBus.Error.ServiceUnknown' || name?.startsWith('org.freedesktop.DBus.Error.Spawn.');
}

let indicatorClass = null;

// A new indicator; `shell` holds the shell's PanelMenu and PopupMenu modules.
export function createIndicator(shell) {
    indicatorClass ??= defineIndicator(shell);
    return new indicatorClass();
}

function defineIndicator({PanelMenu, PopupMenu}) {
    return GObject.registerClass(class HeadlinesIndicator extends PanelMenu.Button {
        _init() {
            super._init(0.0, 'Headlines');
            this._label = new St.Label({text: 'Headlines', y_align: Clutter.ActorAlign.CENTER});
            this.add_child(this._label);
            this._headlines = [];
            this._discussions = new Map();
            this._entry = {index: -1, title: ''};
            this._maxLength = DEFAULT_MAX_LENGTH;
            this._problem = null;
            this._scrolled = 0;
            // The number of each method's latest call: an older answer arriving late is dropped.
            this._latest = {};
            this._cancellable = new Gio.Cancellable();
            this.connect('scroll-event', (_actor, event) => this._scroll(event));
            this.menu.connect('open-state-changed', (_menu, open) => {
                if (open)
                    this._fillMenu();
            });
            this.connect('destroy', () => this._stop());
            this._fillMenu();
            Gio.DBusProxy.new_for_bus(Gio.BusType.SESSION, Gio.DBusProxyFlags.DO_NOT_LOAD_PROPERTIES, null,
                BUS_NAME, OBJECT_PATH, INTERFACE, this._cancellable, (_source, result) => {
                    try {
                        this._proxy = Gio.DBusProxy.new_for_bus_finish(result);
                    } catch (error) {
                        if (!error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                            this._fail(error);
                        return;
                    }
                    this._signalId = this._proxy.connect('g-signal', (_proxy, _sender, name) => this._signalled(name));
                    // A host that starts (again) after a failure: show what it has.
                    this._ownerId = this._proxy.connect('notify::g-name-owner', () => {
                        if (this._proxy.g_name_owner)
                            this._refresh();
                    });
                    this._refresh();
                });
        }

        _stop() {
            this._cancellable.cancel();
            if (this._proxy) {
                this._proxy.disconnect(this._signalId);
                this._proxy.disconnect(this._ownerId);
                this._proxy = null;
            }
        }

        // Calls `method` with `args` (of GVariant type `signature`). A question's `answered` gets
        // the unpacked reply, and its failure is shown; an action's failure is shown only when no
        // host could start (the host tells of its own failures, such as a link that opens nothing).
        _call(method, signature, args, answered = null) {
            if (!this._proxy)
                return;
            const number = (this._latest[method] ?? 0) + 1;
            this._latest[method] = number;
            this._proxy.call(method, new GLib.Variant(signature, args), Gio.DBusCallFlags.NONE, CALL_TIMEOUT_MS,
                this._cancellable, (proxy, result) => {
                    let reply;
                    try {
                        reply = proxy.call_finish(result);
                    } catch (error) {
                        if (error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                            return;
                        logError(error, `headlines: ${method}`);
                        if (answered || noHost(error))
                            this._fail(error);
                        return;
                    }
                    if (answered && number === this._latest[method])
                        answered(reply.recursiveUnpack());
                });
        }

        _fail(error) {
            if (noHost(error)) {
                this._problem = NO_HOST;
            } else {
                if (error instanceof GLib.Error)
                    Gio.DBusError.strip_remote_error(error);
                this._problem = `Headlines: ${cut(String(error.message ?? error), DEFAULT_MAX_LENGTH)}`;
            }
            this._show();
        }

        _signalled(name) {
            if (name === 'EntryChanged') {
                this._refreshEntry();
            } else if (name === 'HeadlinesChanged') {
                this._refreshHeadlines();
                this._refreshEntry();
            }
        }

        _refresh() {
            this._call('GetStatus', '(s)', [WIDGET], ([status]) => {
                if (Number.isInteger(status.max_length) && status.max_length > 1)
                    this._maxLength = status.max_length;
                this._show();
            });
            this._refreshHeadlines();
            this._refreshEntry();
        }

        _refreshHeadlines() {
            this._call('ListHeadlines', '(s)', [WIDGET], ([headlines]) => {
                this._problem = null;
                this._headlines = headlines;
                this._show();
            });
            this._call('ListDiscussions', '(s)', [WIDGET], ([discussions]) => {
                this._discussions = new Map(discussions);
                this._show();
            });
        }

        _refreshEntry() {
            this._call('GetEntry', '(s)', [WIDGET], ([index, title]) => {
                this._problem = null;
                this._entry = {index, title};
                this._show();
            });
        }

        _show() {
            if (this._problem)
                this._label.text = this._problem;
            else
                this._label.text = this._entry.index < 0 ? 'Headlines' : cut(this._entry.title, this._maxLength);
            if (this.menu.isOpen)
                this._fillMenu();
        }

        // One step a wheel notch, or a touchpad's whole line of smooth scrolling. A wheel notch
        // comes twice, as UP or DOWN and as a smooth scroll (marked emulated, or from the wheel
        // source): the smooth one is not counted.
        _scroll(event) {
            let step = 0;
            const direction = event.get_scroll_direction();
            if (direction === Clutter.ScrollDirection.UP) {
                step = -1;
            } else if (direction === Clutter.ScrollDirection.DOWN) {
                step = 1;
            } else if (direction === Clutter.ScrollDirection.SMOOTH && !event.is_pointer_emulated() &&
                       event.get_scroll_source() !== Clutter.ScrollSource.WHEEL) {
                this._scrolled += event.get_scroll_delta()[1];
                if (Math.abs(this._scrolled) >= 1) {
                    step = Math.sign(this._scrolled);
                    this._scrolled = 0;
                }
            }
            if (step !== 0)
                this._call(step > 0 ? 'Next' : 'Previous', '(si)', [WIDGET, 1]);
            return Clutter.EVENT_STOP;
        }

        _fillMenu() {
            this.menu.removeAll();
            if (this._problem || this._headlines.length === 0) {
                this.menu.addMenuItem(new PopupMenu.PopupMenuItem(this._problem ?? 'No headlines yet', {reactive: false}));
            }
            const now = Date.now() / 1000;
            this._headlines.slice(0, MENU_HEADLINES).forEach(([key, title, source, _url, published], index) => {
                const item = new PopupMenu.PopupMenuItem(cut(title, this._maxLength));
                item.add_child(new St.Label({
                    text: [cut(source, SOURCE_LENGTH), age(published, now)].filter(part => part).join(' · '),
                    style_class: 'popup-inactive-menu-item',
                    x_expand: true,
                    x_align: Clutter.ActorAlign.END,
                    y_align: Clutter.ActorAlign.CENTER,
                }));
                if (index === this._entry.index)
                    item.setOrnament(PopupMenu.Ornament.DOT);
                item.connect('activate', () => this._call('OpenHeadline', '(ssb)', [WIDGET, key, false]));
                this.menu.addMenuItem(item);
            });
            this.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
            const current = this._headlines[this._entry.index];
            if (current && this._discussions.has(current[0])) {
                const comments = new PopupMenu.PopupMenuItem('Comments');
                comments.connect('activate', () => this._call('OpenHeadline', '(ssb)', [WIDGET, current[0], true]));
                this.menu.addMenuItem(comments);
            }
            const reload = new PopupMenu.PopupMenuItem('Reload');
            reload.connect('activate', () => this._call('Reload', '(s)', [WIDGET]));
            this.menu.addMenuItem(reload);
        }
    });
}
