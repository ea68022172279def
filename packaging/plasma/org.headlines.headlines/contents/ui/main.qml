import QtQuick 2.15
import org.kde.plasma.plasmoid 2.0
import org.kde.plasma.core 2.0 as PlasmaCore

// The headlines applet shows what the host hands it and parses no feed. Plasma 5's QML has no
// D-Bus call API, so the widget document comes from `headlines-bar json --changed-from NAME`
// through the "executable" data engine, which hands over a command's output when it exits: that
// command prints the document once it is not the one NAME names, then exits, so one process
// waits between two changes and nothing polls. Clicks and the wheel run the CLI the same way.
Item {
    id: root

    // The widget document (docs/bars.md), and its name for the next run.
    property var doc: null
    property string docName: "0"
    // What the applet says when it has no headline: the host's error, or why it has none.
    property string problem: "headlines: starting"
    readonly property var items: doc && Array.isArray(doc.items) ? doc.items : []
    readonly property var shown: doc && typeof doc.index === "number" && doc.index < items.length ? items[doc.index] : null
    // Wheel steps not yet handed to `headlines-bar next`/`prev` (negative: back), and whether one runs.
    property int pendingSteps: 0
    property bool stepping: false

    Plasmoid.icon: "headlines"
    Plasmoid.switchWidth: PlasmaCore.Units.gridUnit * 12
    Plasmoid.switchHeight: PlasmaCore.Units.gridUnit * 10
    Plasmoid.compactRepresentation: CurrentHeadline {}
    Plasmoid.fullRepresentation: HeadlineList {}

    // Keys are 16 hex digits; anything else in a document is not handed to a shell.
    function open(key) {
        if (typeof key === "string" && /^[0-9a-f]{16}$/.test(key)) {
            commands.connectSource("exec headlines open --id " + key)
        }
    }

    function step(steps) {
        pendingSteps += steps
        if (stepping || pendingSteps === 0) return
        stepping = true
        commands.connectSource("exec headlines-bar " + (pendingSteps > 0 ? "next " : "prev ") + Math.abs(pendingSteps))
        pendingSteps = 0
    }

    function follow() {
        follower.connectSource("exec headlines-bar json --changed-from " + docName)
    }

    PlasmaCore.DataSource {
        id: follower
        engine: "executable"
        onNewData: {
            disconnectSource(sourceName)
            var out = data["stdout"] || ""
            var document = null
            // The name's line (16 hex digits), then the document.
            if (data["exit code"] === 0 && /^[0-9a-f]{16}\n/.test(out)) {
                try { document = JSON.parse(out.slice(17)) } catch (e) { document = null }
            }
            if (document === null) {
                // No headlines-bar on PATH (the shell's 127), or one that failed: say so, and try
                // again later.
                root.problem = data["exit code"] === 127 ? "headlines: headlines-bar is not installed (not on PATH)"
                                                         : "headlines: headlines-bar json failed (exit " + data["exit code"] + ")"
                retry.start()
                return
            }
            root.docName = out.slice(0, 16)
            root.doc = document
            root.problem = document.error || (root.items.length === 0 ? "headlines: no headlines yet" : "")
            root.follow()
        }
    }

    PlasmaCore.DataSource {
        id: commands
        engine: "executable"
        onNewData: {
            disconnectSource(sourceName)
            if (sourceName.indexOf("exec headlines-bar ") === 0) {
                root.stepping = false
                root.step(0)
            }
        }
    }

    Timer {
        id: retry
        interval: 30000
        onTriggered: root.follow()
    }

    Component.onCompleted: follow()
}
