import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.core 2.0 as PlasmaCore
import org.kde.plasma.components 3.0 as PlasmaComponents3
import org.kde.plasma.extras 2.0 as PlasmaExtras

// The desktop's form (and the panel's popup): the head line (the headline on display, or why
// there is none), then every headline with its thumbnail, source and age, as plain text. A click
// on one opens it.
PlasmaExtras.Representation {
    Layout.minimumWidth: PlasmaCore.Units.gridUnit * 12
    Layout.minimumHeight: PlasmaCore.Units.gridUnit * 10
    Layout.preferredWidth: PlasmaCore.Units.gridUnit * 24
    Layout.preferredHeight: PlasmaCore.Units.gridUnit * 22

    ColumnLayout {
        anchors.fill: parent
        spacing: PlasmaCore.Units.smallSpacing

        CurrentHeadline {
            Layout.fillWidth: true
            Layout.maximumWidth: -1
            font.pointSize: PlasmaCore.Theme.defaultFont.pointSize * 1.2
        }

        PlasmaComponents3.ScrollView {
            Layout.fillWidth: true
            Layout.fillHeight: true
            ListView {
                id: list
                model: root.items
                clip: true
                delegate: MouseArea {
                    id: row
                    width: list.width
                    height: PlasmaCore.Units.gridUnit * 3
                    hoverEnabled: true
                    onClicked: root.open(modelData.id)

                    PlasmaExtras.Highlight {
                        anchors.fill: parent
                        visible: row.containsMouse
                        hovered: true
                    }
                    RowLayout {
                        anchors.fill: parent
                        anchors.margins: PlasmaCore.Units.smallSpacing
                        Image {
                            Layout.preferredWidth: PlasmaCore.Units.gridUnit * 2.5
                            Layout.preferredHeight: PlasmaCore.Units.gridUnit * 2.5
                            // A path the host wrote (its thumbnail folder), each part escaped for the URL.
                            source: modelData.thumbnail ? "file://" + modelData.thumbnail.split("/").map(encodeURIComponent).join("/") : ""
                            sourceSize.width: 64
                            sourceSize.height: 64
                            fillMode: Image.PreserveAspectCrop
                            asynchronous: true
                        }
                        ColumnLayout {
                            Layout.fillWidth: true
                            spacing: 0
                            PlasmaComponents3.Label {
                                Layout.fillWidth: true
                                // Titles are the feeds' text: never markup.
                                textFormat: Text.PlainText
                                text: modelData.title
                                elide: Text.ElideRight
                                maximumLineCount: 1
                                wrapMode: Text.NoWrap
                                font.bold: modelData.match
                            }
                            PlasmaComponents3.Label {
                                Layout.fillWidth: true
                                textFormat: Text.PlainText
                                text: modelData.source + " · " + modelData.age
                                elide: Text.ElideRight
                                maximumLineCount: 1
                                opacity: 0.7
                                font: PlasmaCore.Theme.smallestFont
                            }
                        }
                    }
                }
            }
        }
    }
}
