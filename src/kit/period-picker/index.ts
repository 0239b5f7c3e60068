/** The period picker kit (issue 13): `PeriodPicker` for a start–end period, `DateTimeField` for one time, `MonthField` for a month. */
import './messages.ts';

export { DateTimeField, type DateTimeFieldProps } from './DateTimeField.tsx';
export { MonthField, type MonthFieldProps } from './MonthField.tsx';
export { PeriodPicker, type PeriodPickerProps } from './PeriodPicker.tsx';
export { QUICK_RANGES, type Period, type PeriodLimits, type PeriodMode, type QuickRange } from '../../../domain/period/period.ts';
