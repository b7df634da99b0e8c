# fish completion for hcclctl; candidates come from `hcclctl --completion-words`.
function __hcclctl_words
    set -l toks (commandline -opc)
    set -e toks[1]
    hcclctl --completion-words $toks 2>/dev/null
end

function __hcclctl_complete
    set -l words (__hcclctl_words)
    if test "$words[1]" = ":file"
        __fish_complete_path (commandline -ct)
    else if test "$words[1]" = ":dir"
        __fish_complete_directories (commandline -ct)
    else
        for w in $words
            test "$w" = ":file"; and __fish_complete_path (commandline -ct); and continue
            echo $w
        end
    end
end

complete -c hcclctl -f -a '(__hcclctl_complete)'
