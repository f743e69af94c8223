// BRAIN (spec 2 §2): FOUNDATIONS, KNOWLEDGE BASE (realtime or LLM engines only) and FUNCTIONS
// (additionally the realtime flag). Disabled sub-tabs say why.
import { useState } from 'react';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import { useWatch } from 'react-hook-form';
import { PRODUCT_NAME } from '@parla/shared/enums';
import type { EditorValues } from '../../lib/editor-values';
import { BrainFoundations } from './brain-foundations';
import { KnowledgeSettings } from './brain-knowledge-settings';
import { FunctionLinks, KnowledgeLinks } from './brain-links';
import { functionsEnabled, knowledgeEnabled } from './brain-modes';

const HINTS = {
  knowledge: `Knowledge bases work with the ${PRODUCT_NAME} Realtime and Large Language Model engines.`,
  functions: `Functions need a realtime avatar on the ${PRODUCT_NAME} Realtime or Large Language Model engine.`,
};

function label(text: string, hint: string, disabled: boolean) {
  return disabled ? (
    <Tooltip title={hint} describeChild>
      <span>{text}</span>
    </Tooltip>
  ) : (
    text
  );
}

export function BrainTab() {
  const engine = useWatch<EditorValues, 'nlpEngine'>({ name: 'nlpEngine' });
  const realtime = useWatch<EditorValues, 'realtime'>({ name: 'realtime' });
  const kb = knowledgeEnabled(engine);
  const fn = functionsEnabled(engine, realtime);
  const [sub, setSub] = useState(0);
  const current = (sub === 1 && !kb) || (sub === 2 && !fn) ? 0 : sub;

  return (
    <Box>
      <Tabs
        value={current}
        onChange={(_e, v: number) => setSub(v)}
        aria-label="Brain sections"
        sx={{ mb: 2, '& .Mui-disabled': { pointerEvents: 'auto' } }}
      >
        <Tab label="FOUNDATIONS" />
        <Tab label={label('KNOWLEDGE BASE', HINTS.knowledge, !kb)} disabled={!kb} />
        <Tab label={label('FUNCTIONS', HINTS.functions, !fn)} disabled={!fn} />
      </Tabs>
      {current === 0 && <BrainFoundations />}
      {current === 1 && (
        <>
          <KnowledgeLinks />
          <KnowledgeSettings />
        </>
      )}
      {current === 2 && <FunctionLinks />}
    </Box>
  );
}
