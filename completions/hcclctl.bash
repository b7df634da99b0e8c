# bash completion for hcclctl. The words come from the binary's own command table
# (hcclctl --completion-words), so this file never lists a command or option itself.
_hcclctl()
{
	local cur=${COMP_WORDS[COMP_CWORD]} words
	words=$("${COMP_WORDS[0]}" --completion-words "${COMP_WORDS[@]:1:COMP_CWORD-1}" 2>/dev/null) || return
	case $words in
	:file*) COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null ;;
	:dir*) COMPREPLY=($(compgen -d -- "$cur")); compopt -o filenames 2>/dev/null ;;
	*)
		local w=${words//:file/}
		COMPREPLY=($(compgen -W "$w" -- "$cur"))
		if [[ ${#COMPREPLY[@]} -eq 0 && $cur == *,* ]]; then
			# a list (doctor --checks npu,link.r): complete its last item
			COMPREPLY=($(compgen -P "${cur%,*}," -W "$w" -- "${cur##*,}"))
			compopt -o nospace 2>/dev/null
		fi
		if [[ $words == *:file* && $cur != -* ]]; then
			COMPREPLY+=($(compgen -f -- "$cur"))
			compopt -o filenames 2>/dev/null
		fi
		;;
	esac
}
complete -F _hcclctl hcclctl
