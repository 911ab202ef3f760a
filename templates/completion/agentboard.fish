# agentboard completion for fish. Load it once:
#   agentboard completion fish > ~/.config/fish/completions/agentboard.fish
# The candidates come from agentboard itself: commands, flags, change ids and task ids of the board.
function __agentboard_complete
    set -l words (commandline -opc) (commandline -ct)
    set -e words[1]
    set -l candidates (agentboard __complete -- $words 2>/dev/null)
    if test "$candidates[1]" = __files__
        __fish_complete_path (commandline -ct)
    else
        printf '%s\n' $candidates
    end
end
complete -c agentboard -f -a '(__agentboard_complete)'
