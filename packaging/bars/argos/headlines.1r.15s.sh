#!/bin/sh
# GNOME Argos: copy to ~/.config/argos/ (the name says: position 1, right box, every 15 s). The
# button shows the headline; the menu lists the top headlines, each opening its own.
exec headlines-bar argos
