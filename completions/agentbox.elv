
use builtin;
use str;

set edit:completion:arg-completer[agentbox] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'agentbox'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'agentbox'= {
            cand --format 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]'
            cand --home 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]'
            cand --color 'Colour text output: auto respects NO_COLOR and terminals'
            cand -q 'Print nothing on success in text mode (json still prints its envelope)'
            cand --quiet 'Print nothing on success in text mode (json still prints its envelope)'
            cand -v 'Log what happens to stderr'
            cand --verbose 'Log what happens to stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand plan 'Plans with ordered steps: create, track status, pick the next step'
            cand init 'Create an agent home (.agent/) with its config, folders and tool links'
            cand link 'Re-create or repair the links in .agent/tools/ (idempotent)'
            cand doctor 'Check the home: config, folders, links, documents'
            cand reindex 'Rebuild the search index from the files of the home'
            cand completions 'Print a shell completion script'
        }
        &'agentbox;plan'= {
            cand --format 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]'
            cand --home 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]'
            cand --color 'Colour text output: auto respects NO_COLOR and terminals'
            cand -q 'Print nothing on success in text mode (json still prints its envelope)'
            cand --quiet 'Print nothing on success in text mode (json still prints its envelope)'
            cand -v 'Log what happens to stderr'
            cand --verbose 'Log what happens to stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Create a plan from a title and --step flags, or from a plan file'
            cand show 'Show a plan as a checklist (default: the most recently updated active plan)'
            cand list 'List plans, most recently updated first'
            cand step 'Set a step''s status and/or note'
            cand add-step 'Add a step (at the end, or after step N; later steps are renumbered)'
            cand next 'Show the step to work on: the one in progress, else the first pending one'
            cand archive 'Archive a plan: it stays readable but takes no more changes'
        }
        &'agentbox;plan;create'= {
            cand --step 'A step, in order (repeat for more)'
            cand --file 'Read the plan from a JSON or markdown file ("-" for stdin)'
            cand --id 'Plan id (default: derived from the title, made unique)'
            cand --format 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]'
            cand --home 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]'
            cand --color 'Colour text output: auto respects NO_COLOR and terminals'
            cand -q 'Print nothing on success in text mode (json still prints its envelope)'
            cand --quiet 'Print nothing on success in text mode (json still prints its envelope)'
            cand -v 'Log what happens to stderr'
            cand --verbose 'Log what happens to stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentbox;plan;show'= {
            cand --format 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]'
            cand --home 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]'
            cand --color 'Colour text output: auto respects NO_COLOR and terminals'
            cand -q 'Print nothing on success in text mode (json still prints its envelope)'
            cand --quiet 'Print nothing on success in text mode (json still prints its envelope)'
            cand -v 'Log what happens to stderr'
            cand --verbose 'Log what happens to stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentbox;plan;list'= {
            cand --format 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]'
            cand --home 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]'
            cand --color 'Colour text output: auto respects NO_COLOR and terminals'
            cand --all 'Include archived plans'
            cand -q 'Print nothing on success in text mode (json still prints its envelope)'
            cand --quiet 'Print nothing on success in text mode (json still prints its envelope)'
            cand -v 'Log what happens to stderr'
            cand --verbose 'Log what happens to stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentbox;plan;step'= {
            cand --status 'New status'
            cand --note 'Note for the step (an empty note clears it)'
            cand --expect-version 'Refuse the write unless the plan is at this version'
            cand --format 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]'
            cand --home 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]'
            cand --color 'Colour text output: auto respects NO_COLOR and terminals'
            cand -q 'Print nothing on success in text mode (json still prints its envelope)'
            cand --quiet 'Print nothing on success in text mode (json still prints its envelope)'
            cand -v 'Log what happens to stderr'
            cand --verbose 'Log what happens to stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentbox;plan;add-step'= {
            cand --after 'Insert after step N (0 = at the top)'
            cand --expect-version 'Refuse the write unless the plan is at this version'
            cand --format 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]'
            cand --home 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]'
            cand --color 'Colour text output: auto respects NO_COLOR and terminals'
            cand -q 'Print nothing on success in text mode (json still prints its envelope)'
            cand --quiet 'Print nothing on success in text mode (json still prints its envelope)'
            cand -v 'Log what happens to stderr'
            cand --verbose 'Log what happens to stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentbox;plan;next'= {
            cand --expect-version 'With --start: refuse the write unless the plan is at this version'
            cand --format 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]'
            cand --home 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]'
            cand --color 'Colour text output: auto respects NO_COLOR and terminals'
            cand --start 'Also mark that step in_progress (a mutation)'
            cand -q 'Print nothing on success in text mode (json still prints its envelope)'
            cand --quiet 'Print nothing on success in text mode (json still prints its envelope)'
            cand -v 'Log what happens to stderr'
            cand --verbose 'Log what happens to stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentbox;plan;archive'= {
            cand --expect-version 'Refuse the write unless the plan is at this version'
            cand --format 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]'
            cand --home 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]'
            cand --color 'Colour text output: auto respects NO_COLOR and terminals'
            cand -q 'Print nothing on success in text mode (json still prints its envelope)'
            cand --quiet 'Print nothing on success in text mode (json still prints its envelope)'
            cand -v 'Log what happens to stderr'
            cand --verbose 'Log what happens to stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentbox;init'= {
            cand --format 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]'
            cand --home 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]'
            cand --color 'Colour text output: auto respects NO_COLOR and terminals'
            cand -q 'Print nothing on success in text mode (json still prints its envelope)'
            cand --quiet 'Print nothing on success in text mode (json still prints its envelope)'
            cand -v 'Log what happens to stderr'
            cand --verbose 'Log what happens to stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentbox;link'= {
            cand --format 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]'
            cand --home 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]'
            cand --color 'Colour text output: auto respects NO_COLOR and terminals'
            cand -q 'Print nothing on success in text mode (json still prints its envelope)'
            cand --quiet 'Print nothing on success in text mode (json still prints its envelope)'
            cand -v 'Log what happens to stderr'
            cand --verbose 'Log what happens to stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentbox;doctor'= {
            cand --format 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]'
            cand --home 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]'
            cand --color 'Colour text output: auto respects NO_COLOR and terminals'
            cand -q 'Print nothing on success in text mode (json still prints its envelope)'
            cand --quiet 'Print nothing on success in text mode (json still prints its envelope)'
            cand -v 'Log what happens to stderr'
            cand --verbose 'Log what happens to stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentbox;reindex'= {
            cand --format 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]'
            cand --home 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]'
            cand --color 'Colour text output: auto respects NO_COLOR and terminals'
            cand -q 'Print nothing on success in text mode (json still prints its envelope)'
            cand --quiet 'Print nothing on success in text mode (json still prints its envelope)'
            cand -v 'Log what happens to stderr'
            cand --verbose 'Log what happens to stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentbox;completions'= {
            cand --format 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]'
            cand --home 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]'
            cand --color 'Colour text output: auto respects NO_COLOR and terminals'
            cand -q 'Print nothing on success in text mode (json still prints its envelope)'
            cand --quiet 'Print nothing on success in text mode (json still prints its envelope)'
            cand -v 'Log what happens to stderr'
            cand --verbose 'Log what happens to stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
    ]
    $completions[$command]
}
