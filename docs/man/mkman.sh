#!/bin/sh
# Writes the manual pages docs/man/modelcat.1 and docs/man/modelcat-COMMAND.1
# from the programs' own --help, so the pages say what the programs do.
#   sh docs/man/mkman.sh BIN_DIR OUT_DIR
set -eu
bin=$1
out=$2
version=$("$bin/modelcat" --version | cut -d' ' -f2)
date=$(git -C "$(dirname "$0")" log -1 --format=%cs 2>/dev/null || date +%Y-%m-%d)

# roff-escape stdin: backslashes, and lines starting with . or '
esc() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }

page() { # name summary help-text-file
	{
		printf '.TH %s 1 "%s" "modelcat %s" "modelcat manual"\n' \
			"$(echo "$1" | tr '[:lower:]' '[:upper:]')" "$date" "$version"
		printf '.SH NAME\n%s \\- %s\n' "$1" "$2"
		printf '.SH SYNOPSIS\n.nf\n'
		awk '/^$/ { exit } { sub(/^ *(usage: )?/, ""); print }' "$3" | esc
		printf '.fi\n.SH DESCRIPTION\n.nf\n'
		awk 'f; /^$/ && !f { f = 1 }' "$3" | esc
		printf '.fi\n.SH SEE ALSO\n'
		if [ "$1" = modelcat ]; then
			for c in $commands; do printf '.BR modelcat-%s (1)\n' "$c"; done
		else
			printf '.BR modelcat (1)\n'
		fi
	} >"$out/$1.1"
}

mkdir -p "$out"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$bin/modelcat" --help >"$tmp"
commands=$(awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { f = 0 }' "$tmp")
page modelcat "keep a versioned catalogue of AI models and publish a page per model" "$tmp"
for c in $commands; do
	summary=$(awk -v c="$c" '$1 == c { $1 = ""; sub(/^ +/, ""); print }' "$tmp")
	"$bin/modelcat-$c" --help >"$tmp.c"
	page "modelcat-$c" "$summary" "$tmp.c"
	rm -f "$tmp.c"
done
