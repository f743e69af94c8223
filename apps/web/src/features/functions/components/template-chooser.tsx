// The template chooser (spec 4 §2): Empty Function Canvas, Example Function Template (starter
// Python) and the server's templates. Continuing without a choice shows the spec's message.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import {
  EMPTY_FUNCTION_TEMPLATE,
  EXAMPLE_FUNCTION_CODE,
  EXAMPLE_FUNCTION_TEMPLATE,
  SELECT_TEMPLATE_MESSAGE,
  type FunctionRecord,
} from '@parla/shared/schemas/functions';

export interface ChosenTemplate {
  name: string;
  code: string;
}

export function TemplateChooser({
  serverTemplates,
  onChoose,
}: {
  serverTemplates: FunctionRecord[];
  onChoose: (t: ChosenTemplate) => void;
}) {
  const options: { key: string; title: string; description: string; template: ChosenTemplate }[] = [
    { key: 'empty', title: EMPTY_FUNCTION_TEMPLATE, description: 'Start from a blank file.', template: { name: '', code: '' } },
    {
      key: 'example',
      title: EXAMPLE_FUNCTION_TEMPLATE,
      description: 'A documented Python function that looks up an order.',
      template: { name: 'get_order_status.py', code: EXAMPLE_FUNCTION_CODE },
    },
    ...serverTemplates.map((t) => ({
      key: t.id,
      title: t.name,
      description:
        t.code
          .split('\n')
          .find((l) => l.trim().startsWith('"""'))
          ?.replace(/"""/g, '')
          .trim() || 'Template',
      template: { name: t.name, code: t.code },
    })),
  ];
  const [picked, setPicked] = useState<string | null>(null);
  const [error, setError] = useState(false);
  const chosen = options.find((o) => o.key === picked);
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Typography variant="h2" component="h1">
        Choose a Template
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        Functions are Python code an avatar can call. An administrator reviews each function before any avatar may use it.
      </Typography>
      <Box
        role="radiogroup"
        aria-label="Function templates"
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2, mt: 2 }}
      >
        {options.map((o) => (
          <Card
            key={o.key}
            variant="outlined"
            sx={{ borderColor: picked === o.key ? 'primary.main' : undefined, borderWidth: picked === o.key ? 2 : 1 }}
          >
            <CardActionArea
              role="radio"
              aria-checked={picked === o.key}
              onClick={() => {
                setPicked(o.key);
                setError(false);
              }}
              sx={{ height: '100%' }}
            >
              <CardContent>
                <Typography sx={{ fontWeight: 600 }}>{o.title}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {o.description}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
      {error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {SELECT_TEMPLATE_MESSAGE}
        </Alert>
      )}
      <Button variant="contained" sx={{ mt: 2 }} onClick={() => (chosen ? onChoose(chosen.template) : setError(true))}>
        Continue
      </Button>
    </Paper>
  );
}
