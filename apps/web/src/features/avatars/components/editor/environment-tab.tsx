// ENVIRONMENT (spec 2 §2): Background (steps Background and Lighting) and 3D Environment, with
// the rules between avatar type and environment explained where a choice is unavailable.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Step from '@mui/material/Step';
import StepButton from '@mui/material/StepButton';
import Stepper from '@mui/material/Stepper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useWatch } from 'react-hook-form';
import type { EditorValues } from '../../lib/editor-values';
import { BackgroundStep } from './background-step';
import { Environment3dStep } from './environment-3d-step';
import { LightingStep } from './lighting-step';

export const ENVIRONMENT_RULES = {
  background: 'A background is for upper-body and image avatars. A full-body avatar stands in a 3D environment instead.',
  environment: 'A 3D environment needs a full-body avatar.',
  lighting: 'Lighting is for upper-body avatars only.',
};

function HintTab({ label, hint, value, disabled, ...rest }: { label: string; hint: string; value: string; disabled: boolean }) {
  return (
    <Tab
      {...rest}
      value={value}
      disabled={disabled}
      sx={{ '&.Mui-disabled': { pointerEvents: 'auto' } }}
      label={
        disabled ? (
          <Tooltip title={hint} describeChild>
            <span>{label}</span>
          </Tooltip>
        ) : (
          label
        )
      }
    />
  );
}

export function EnvironmentTab() {
  const dhType = useWatch<EditorValues, 'dhType'>({ name: 'dhType' });
  const backgroundAllowed = dhType === '2d' || dhType === 'image';
  const environmentAllowed = dhType === '3d';
  const lightingAllowed = dhType === '2d';
  const [sub, setSub] = useState<'background' | 'environment'>(environmentAllowed ? 'environment' : 'background');
  const [step, setStep] = useState(0);
  const current =
    sub === 'background' && !backgroundAllowed && environmentAllowed
      ? 'environment'
      : sub === 'environment' && !environmentAllowed
        ? 'background'
        : sub;

  return (
    <Box>
      <Tabs value={current} onChange={(_e, v: 'background' | 'environment') => setSub(v)} aria-label="Environment sections" sx={{ mb: 2 }}>
        <HintTab value="background" label="Background" hint={ENVIRONMENT_RULES.background} disabled={!backgroundAllowed} />
        <HintTab value="environment" label="3D Environment" hint={ENVIRONMENT_RULES.environment} disabled={!environmentAllowed} />
      </Tabs>
      {current === 'background' && (
        <Box>
          {!backgroundAllowed && (
            <Alert severity="info" sx={{ mb: 2 }}>
              {ENVIRONMENT_RULES.background}
            </Alert>
          )}
          <Stepper nonLinear activeStep={step} aria-label="Background steps" sx={{ mb: 2, maxWidth: 420 }}>
            <Step completed={false}>
              <StepButton onClick={() => setStep(0)}>Background</StepButton>
            </Step>
            <Step completed={false} disabled={!lightingAllowed}>
              <Tooltip title={lightingAllowed ? '' : ENVIRONMENT_RULES.lighting} describeChild>
                <span>
                  <StepButton
                    onClick={() => setStep(1)}
                    disabled={!lightingAllowed}
                    optional={!lightingAllowed ? <Typography variant="caption">Upper body only</Typography> : undefined}
                  >
                    Lighting
                  </StepButton>
                </span>
              </Tooltip>
            </Step>
          </Stepper>
          {step === 0 || !lightingAllowed ? <BackgroundStep disabled={!backgroundAllowed} /> : <LightingStep disabled={!lightingAllowed} />}
        </Box>
      )}
      {current === 'environment' && (
        <Box>
          {!environmentAllowed && (
            <Alert severity="info" sx={{ mb: 2 }}>
              {ENVIRONMENT_RULES.environment}
            </Alert>
          )}
          <Environment3dStep disabled={!environmentAllowed} />
        </Box>
      )}
    </Box>
  );
}
