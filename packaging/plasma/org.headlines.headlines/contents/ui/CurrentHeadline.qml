import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.plasmoid 2.0
import org.kde.plasma.core 2.0 as PlasmaCore
import org.kde.plasma.components 3.0 as PlasmaComponents3

// The headline on display, as plain text on one line: the whole panel form, and the head of the
// desktop form. A left click opens it, the wheel turns to the next or previous headline (every
// bar turns with it), a middle click shows or hides the list.
MouseArea {
    id: current
    property alias font: label.font
    Layout.minimumWidth: PlasmaCore.Units.gridUnit * 4
    Layout.preferredWidth: Math.min(label.implicitWidth, PlasmaCore.Units.gridUnit * 25)
    Layout.preferredHeight: label.implicitHeight
    implicitWidth: label.implicitWidth
    implicitHeight: label.implicitHeight
    acceptedButtons: Qt.LeftButton | Qt.MiddleButton
    property int wheelDelta: 0

    onClicked: {
        if (mouse.button === Qt.MiddleButton) plasmoid.expanded = !plasmoid.expanded
        else if (root.shown) root.open(root.shown.id)
    }
    onWheel: {
        // A notch is 120; a touchpad sends less at a time.
        wheelDelta += wheel.angleDelta.y
        var notches = Math.trunc(wheelDelta / 120)
        if (notches !== 0) {
            wheelDelta -= notches * 120
            root.step(-notches)   // up is back, as in the bars
        }
    }

    PlasmaComponents3.Label {
        id: label
        anchors.fill: parent
        // Titles are the feeds' text: never markup.
        textFormat: Text.PlainText
        text: root.shown ? root.shown.title : root.problem
        elide: Text.ElideRight
        maximumLineCount: 1
        wrapMode: Text.NoWrap
        verticalAlignment: Text.AlignVCenter
        color: root.doc && root.doc.stale ? PlasmaCore.Theme.neutralTextColor : PlasmaCore.Theme.textColor
    }
}
